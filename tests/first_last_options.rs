//! `if let Some(v) = x.first()`, `if let Some(&v) = x.last()` and `match
//! x.first() { Some(v) => .., None => .. }` on a differentiable slice: the
//! element's derivative flows, and an empty slice takes the `None` path as
//! the plain function does. Also with an exit in the `None` arm, and in
//! loops whose trip counts depend on the data.
//!
//! Expected derivatives: closed forms where stated, else five-point central
//! differences of the plain function (`tests/fd_support`), to `FD64_ABS`
//! (1e-9) absolute or `FD64_REL` (1e-8) relative.

#![allow(clippy::needless_range_loop)]

use autograd::{Tangent, differentiable};

#[path = "fd_support/mod.rs"]
mod fd_support;
use fd_support::*;

#[differentiable]
fn head_or(x: &[f64], d: f64) -> f64 {
    if let Some(v) = x.first() {
        v * v + d
    } else {
        d.exp()
    }
}

#[differentiable]
fn tail_times_sum(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += x[i];
    }
    if let Some(&v) = x.last() {
        v.sin() * s
    } else {
        0.0
    }
}

#[differentiable]
fn first_match(x: &[f64], y: f64) -> f64 {
    match x.first() {
        Some(v) => *v * y,
        None => y * y,
    }
}

#[differentiable]
fn last_copied(x: &[f64]) -> f64 {
    match x.last().copied() {
        None => 1.0,
        Some(v) => v.exp(),
    }
}

/// The `None` arm returns: a `let` of a `match` on `first()`.
#[differentiable]
fn relative_to_first(x: &[f64]) -> f64 {
    let x0 = match x.first() {
        Some(v) => *v,
        None => return 0.0,
    };
    let mut s = 0.0;
    for i in 0..x.len() {
        s += (x[i] - x0).powi(2);
    }
    s / x0.exp()
}

/// In a loop whose trip count is the data's: while the last entry is above
/// the running sum, add its square; an empty slice breaks at once.
#[differentiable]
fn grow_by_last(x: &[f64], start: f64) -> f64 {
    let mut s = start;
    let mut n = 0;
    while n < 20 {
        let v = if let Some(&v) = x.last() { v } else { break };
        if s > v * 4.0 {
            break;
        }
        s += v * v;
        n += 1;
    }
    s
}

fn check(what: &str, f: impl Fn(&[f64]) -> f64, value: f64, got: &[f64], x: &[f64]) {
    assert_eq!(value.to_bits(), f(x).to_bits(), "{what}: value");
    assert_all_fd64_close(what, got, &fd64_slice(f, x));
}

#[test]
fn if_let_on_first_and_last() {
    let x = [0.7, -0.4, 1.3];
    let (v, dx, dd) = head_or_grad(&x, 0.5);
    check("head_or", |x| head_or(x, 0.5), v, &dx, &x);
    // Closed form: 2·x0 and 1.
    assert_eq!(dx, vec![2.0 * x[0], 0.0, 0.0]);
    assert_eq!(dd, 1.0);
    let (v, dx) = tail_times_sum_grad(&x);
    check("tail_times_sum", tail_times_sum, v, &dx, &x);
}

#[test]
fn the_empty_slice_takes_the_none_path() {
    let (v, dx, dd) = head_or_grad(&[], 0.5);
    assert_eq!(v.to_bits(), head_or(&[], 0.5).to_bits());
    assert!(dx.is_empty());
    // d/dd e^d.
    assert!((dd - 0.5f64.exp()).abs() < CF64_ABS);
    let (v, dx) = tail_times_sum_grad(&[]);
    assert_eq!((v, dx.len()), (0.0, 0));
    let (v, dx, dy) = first_match_grad(&[], 1.5);
    assert_eq!((v, dx.len(), dy), (first_match(&[], 1.5), 0, 3.0));
    let (v, dx) = last_copied_grad(&[]);
    assert_eq!((v, dx.len()), (1.0, 0));
    let (v, dx) = relative_to_first_grad(&[]);
    assert_eq!((v, dx.len()), (0.0, 0));
    let (v, dx, ds) = grow_by_last_grad(&[], 0.3);
    assert_eq!((v, dx.len(), ds), (0.3, 0, 1.0));
}

#[test]
fn match_on_first_and_last() {
    for x in [vec![0.6], vec![-1.1, 0.4], vec![0.2, 0.9, -0.5, 1.4]] {
        let (v, dx, dy) = first_match_grad(&x, 1.5);
        check("first_match", |x| first_match(x, 1.5), v, &dx, &x);
        assert_fd64_close("first_match dy", dy, fd64(|y| first_match(&x, y), 1.5));
        let (v, dx) = last_copied_grad(&x);
        check("last_copied", last_copied, v, &dx, &x);
        let (v, dx) = relative_to_first_grad(&x);
        check("relative_to_first", relative_to_first, v, &dx, &x);
    }
}

#[test]
fn if_let_with_break_in_a_loop() {
    for (x, start) in [
        (vec![0.2, 0.5], 0.1),
        (vec![0.9, 0.7], 0.05),
        (vec![0.3], 2.0),
        (vec![1.2, -0.3, 0.8], 0.4),
    ] {
        let (v, dx, ds) = grow_by_last_grad(&x, start);
        check("grow_by_last", |x| grow_by_last(x, start), v, &dx, &x);
        assert_fd64_close("grow_by_last ds", ds, fd64(|s| grow_by_last(&x, s), start));
    }
}

/// Arms with guards: the first entry's square when it is positive, its
/// negation when it is below -1, else `y`.
#[differentiable]
fn guarded_head(x: &[f64], y: f64) -> f64 {
    match x.first() {
        Some(v) if *v > 0.0 => v * v,
        Some(&v) if v < -1.0 => -v,
        _ => y,
    }
}

#[test]
fn match_on_first_with_guards() {
    for x in [vec![0.7, 0.1], vec![-1.5], vec![-0.5, 2.0], vec![]] {
        let (v, dx, dy) = guarded_head_grad(&x, 0.3);
        check("guarded_head", |x| guarded_head(x, 0.3), v, &dx, &x);
        assert_fd64_close("guarded_head dy", dy, fd64(|y| guarded_head(&x, y), 0.3));
    }
    // Closed forms: 2·x0, -1, and 0 (the `y` arm).
    assert_eq!(guarded_head_grad(&[0.7, 0.1], 0.3).1, vec![1.4, 0.0]);
    assert_eq!(guarded_head_grad(&[-1.5], 0.3).1, vec![-1.0]);
    assert_eq!(
        guarded_head_grad(&[-0.5, 2.0], 0.3),
        (0.3, vec![0.0, 0.0], 1.0)
    );
}

/// The `Option`s of a slice's ends taken apart every way, through the
/// second-order copy (`hessian`) and forward mode: `if let`, a `match`
/// with a guard, a tuple of them with a guard, `unwrap_or`, `let .. else`
/// with `return` (issue 36: each is lowered
/// where it stands, in the body and in its copy at another scalar).
#[differentiable(jvp, hessian)]
fn ends_every_way(x: &[f64], k: f64) -> f64 {
    let a = if let Some(&v) = x.first() {
        v * v * k
    } else {
        k
    };
    let b = match x.last().copied() {
        Some(v) if v > 0.0 => v.ln() * k,
        Some(v) => v * k * k,
        None => 0.0,
    };
    let c = match (x.first(), x.last()) {
        (Some(&p), Some(&q)) if p < q => (q - p) * k,
        _ => 0.0,
    };
    let d = x.last().copied().unwrap_or(k);
    let Some(&e) = x.first() else {
        return a + b + c + d * d;
    };
    let Some(z) = x.last().copied() else {
        return -1.0;
    };
    a + b + c + d * d + e.sin() + z
}

/// `ends_every_way`'s value, gradient (x, then k) and Hessian, in closed
/// form: k·x0² (or k), k·ln xl where xl > 0 (else xl·k²), k·(xl − x0)
/// where x0 < xl, xl² (or k²), then sin x0 + xl, with x0 and xl the first
/// and last entries.
fn ends_every_way_closed(x: &[f64], k: f64) -> (f64, Vec<f64>, Vec<Vec<f64>>) {
    let n = x.len();
    let (mut f, mut g, mut h) = (0.0, vec![0.0; n + 1], vec![vec![0.0; n + 1]; n + 1]);
    let add = |h: &mut Vec<Vec<f64>>, a: usize, b: usize, v: f64| {
        h[a][b] += v;
        if a != b {
            h[b][a] += v;
        }
    };
    if n == 0 {
        f = k + k * k;
        g[0] = 1.0 + 2.0 * k;
        h[0][0] = 2.0;
        return (f, g, h);
    }
    let (x0, xl, l) = (x[0], x[n - 1], n - 1);
    f += k * x0 * x0;
    g[0] += 2.0 * k * x0;
    g[n] += x0 * x0;
    add(&mut h, 0, 0, 2.0 * k);
    add(&mut h, 0, n, 2.0 * x0);
    if xl > 0.0 {
        f += k * xl.ln();
        g[l] += k / xl;
        g[n] += xl.ln();
        add(&mut h, l, l, -k / (xl * xl));
        add(&mut h, l, n, 1.0 / xl);
    } else {
        f += xl * k * k;
        g[l] += k * k;
        g[n] += 2.0 * xl * k;
        add(&mut h, l, n, 2.0 * k);
        add(&mut h, n, n, 2.0 * xl);
    }
    if x0 < xl {
        f += k * (xl - x0);
        g[l] += k;
        g[0] -= k;
        g[n] += xl - x0;
        add(&mut h, l, n, 1.0);
        add(&mut h, 0, n, -1.0);
    }
    f += xl * xl + x0.sin() + xl;
    g[l] += 2.0 * xl + 1.0;
    g[0] += x0.cos();
    add(&mut h, l, l, 2.0);
    add(&mut h, 0, 0, -x0.sin());
    (f, g, h)
}

#[test]
fn ends_every_way_through_hessian_and_jvp() {
    use approx::assert_relative_eq;
    // Each arm: x0 < xl > 0; xl < 0 < x0 (the second arm, no pair);
    // one element (first and last alike); none (every `None` path).
    let cases = [vec![0.4, 1.3, 2.0], vec![0.5, -0.7], vec![1.5], vec![]];
    let k = 0.8;
    for x in cases {
        let n = x.len();
        let (f, g, h) = ends_every_way_closed(&x, k);
        let close = |what: &str, got: f64, want: f64| {
            assert_relative_eq!(got, want, epsilon = 1e-12, max_relative = 1e-12);
            let _ = what;
        };
        let (v, dx, dk) = ends_every_way_grad(&x, k);
        close("value", v, f);
        assert_eq!(v.to_bits(), ends_every_way(&x, k).to_bits(), "{x:?}");
        for i in 0..n {
            close("dx", dx[i], g[i]);
        }
        close("dk", dk, g[n]);
        let (v, _, hess) = ends_every_way_hessian(&x, k);
        close("hessian value", v, f);
        for i in 0..=n {
            for j in 0..=n {
                assert_relative_eq!(hess[(i, j)], h[i][j], epsilon = 1e-12, max_relative = 1e-12);
            }
        }
        let dir: Vec<f64> = (0..n).map(|i| 0.3 - 0.2 * i as f64).collect();
        let (v, t) = ends_every_way_jvp(&x, k, &dir, 0.7);
        close("jvp value", v, f);
        let want: f64 = (0..n).map(|i| g[i] * dir[i]).sum::<f64>() + g[n] * 0.7;
        assert_relative_eq!(t, want, epsilon = 1e-12, max_relative = 1e-12);
    }
}

/// The `Option` of `first()` of a local the body builds, held in a
/// variable and taken apart by `if let` (issue 36: lowered where it is
/// tested; it was one error before, ui-tests/tests/ui/control/first-held-in-variable).
#[differentiable]
fn relative_move(prices: &[f64], scale: f64) -> f64 {
    let mut moved = prices.to_vec();
    moved[0] = scale;
    let head = moved.first();
    let base = if let Some(v) = head { *v } else { 1.0 };
    moved.iter().map(|p| (p / base - 1.0) * scale).sum()
}

#[test]
fn a_held_first_of_a_local_is_taken_apart_where_tested() {
    use approx::assert_relative_eq;
    let p = [2.0, 3.0, 5.0];
    let s = 0.5;
    let (v, dp, ds) = relative_move_grad(&p, s);
    assert_eq!(v.to_bits(), relative_move(&p, s).to_bits());
    // f = Σ_{i≥1} (p_i / s − 1)·s = Σ_{i≥1} p_i − (n − 1)·s (the first
    // term is (s/s − 1)·s = 0): ∂p_i = 1 for i ≥ 1, ∂p_0 = 0, ∂s = −(n − 1)
    // plus the first term's 0.
    assert_eq!(dp[0], 0.0);
    for i in 1..3 {
        assert_relative_eq!(dp[i], 1.0, epsilon = 1e-12, max_relative = 1e-12);
    }
    assert_relative_eq!(ds, -2.0, epsilon = 1e-12, max_relative = 1e-12);
    assert_relative_eq!(
        ds,
        fd64(|q| relative_move(&p, q), s),
        epsilon = 1e-8,
        max_relative = 1e-8
    );
}

/// The ends of a `Vec` field of a `Tangent` struct: `if let`, a guarded
/// `match`, `let .. else` and `unwrap_or` on `p.coef.first()` /
/// `p.coef.last()` (issue 36: the field is the slice the test and the
/// read are of).
#[derive(Clone, Tangent)]
struct Curve {
    coef: Vec<f64>,
    s: f64,
}

#[differentiable]
fn curve_ends(p: &Curve) -> f64 {
    let a = if let Some(&c) = p.coef.first() {
        c * p.s
    } else {
        p.s
    };
    let b = match p.coef.last() {
        Some(v) if *v > 0.0 => v.ln(),
        _ => 0.0,
    };
    let Some(&z) = p.coef.first() else {
        return a;
    };
    a + b + p.coef.last().copied().unwrap_or(1.0) + z
}

#[test]
fn ends_of_a_struct_field() {
    use approx::assert_relative_eq;
    // c0·s + ln c1 + c1 + c0: ∂c0 = s + 1, ∂c1 = 1/c1 + 1, ∂s = c0.
    let p = Curve {
        coef: vec![2.0, 3.0],
        s: 0.5,
    };
    let (v, g) = curve_ends_grad(&p);
    assert_eq!(v.to_bits(), curve_ends(&p).to_bits());
    assert_relative_eq!(
        v,
        1.0 + 3f64.ln() + 3.0 + 2.0,
        epsilon = 1e-12,
        max_relative = 1e-12
    );
    assert_relative_eq!(g.coef[0], 1.5, epsilon = 1e-12, max_relative = 1e-12);
    assert_relative_eq!(
        g.coef[1],
        1.0 / 3.0 + 1.0,
        epsilon = 1e-12,
        max_relative = 1e-12
    );
    assert_relative_eq!(g.s, 2.0, epsilon = 1e-12, max_relative = 1e-12);
    // Empty: s, whose derivative is 1.
    let (v, g) = curve_ends_grad(&Curve {
        coef: vec![],
        s: 0.5,
    });
    assert_eq!((v, g.coef.len(), g.s), (0.5, 0, 1.0));
}

/// `if let` and a guarded `match` on `x.split_first()` / `x.split_last()`:
/// the element and the rest (issue 36: lowered as the `let .. else` on them
/// is, the rest a sub-slice; both were an error before).
#[differentiable(jvp)]
fn split_ends(x: &[f64]) -> f64 {
    let a = if let Some((&h, rest)) = x.split_first() {
        let s: f64 = rest.iter().sum();
        h * s
    } else {
        0.0
    };
    let b = match x.split_last() {
        Some((l, init)) if *l > 0.0 => {
            let s: f64 = init.iter().sum();
            l * s
        }
        Some((l, _)) => l.exp(),
        None => 1.0,
    };
    a + b
}

#[test]
fn if_let_and_match_on_split_first_and_split_last() {
    use approx::assert_relative_eq;
    // Four entries, the last positive: x0·(x1 + x2 + x3) + x3·(x0 + x1 + x2).
    let x = [0.5, -1.0, 2.0, 1.5];
    let (v, dx) = split_ends_grad(&x);
    assert_eq!(v.to_bits(), split_ends(&x).to_bits());
    let want = [
        x[1] + x[2] + 2.0 * x[3],
        x[0] + x[3],
        x[0] + x[3],
        2.0 * x[0] + x[1] + x[2],
    ];
    for i in 0..4 {
        assert_relative_eq!(dx[i], want[i], epsilon = 1e-12, max_relative = 1e-12);
    }
    let dir = [0.3, -0.2, 0.7, 0.1];
    let (tv, t) = split_ends_jvp(&x, &dir);
    assert_eq!(tv.to_bits(), v.to_bits());
    let along: f64 = (0..4).map(|i| want[i] * dir[i]).sum();
    assert_relative_eq!(t, along, epsilon = 1e-12, max_relative = 1e-12);
    // Two entries, the last negative: x0·x1 + e^x1 (the second arm).
    let (v, dx) = split_ends_grad(&[0.5, -0.2]);
    let e = (-0.2f64).exp();
    assert_relative_eq!(v, -0.1 + e, epsilon = 1e-12, max_relative = 1e-12);
    assert_relative_eq!(dx[0], -0.2, epsilon = 1e-12, max_relative = 1e-12);
    assert_relative_eq!(dx[1], 0.5 + e, epsilon = 1e-12, max_relative = 1e-12);
    // None: 1.
    assert_eq!(split_ends_grad(&[]), (1.0, vec![]));
}

/// `x.first()` held in a variable and read by `.copied().unwrap_or(d)`,
/// beside `x.last()` held and taken apart by `if let` (issue 36, step 5:
/// the options rewrite substituted the call for such a name before
/// lowering; the held `Option` is now lowered as the call's).
#[differentiable]
fn held_first_or(x: &[f64], d: f64) -> f64 {
    let head = x.first();
    let tail = x.last();
    let h = head.copied().unwrap_or(d);
    if let Some(&t) = tail { h * t } else { h * d }
}

#[test]
fn held_first_unwrapped_with_a_default() {
    use approx::assert_relative_eq;
    let d = 0.7;
    // f = x0·x_last (x0² for one element), d² for none.
    for x in [vec![1.5, -0.4, 2.5], vec![0.8], vec![]] {
        let n = x.len();
        let mut g = vec![0.0; n];
        let (f, dd) = if n == 0 {
            (d * d, 2.0 * d)
        } else {
            g[0] += x[n - 1];
            g[n - 1] += x[0];
            (x[0] * x[n - 1], 0.0)
        };
        let (v, dx, gd) = held_first_or_grad(&x, d);
        assert_eq!(v.to_bits(), held_first_or(&x, d).to_bits());
        assert_relative_eq!(v, f, epsilon = 1e-12, max_relative = 1e-12);
        for k in 0..n {
            assert_relative_eq!(dx[k], g[k], epsilon = 1e-12, max_relative = 1e-12);
        }
        assert_relative_eq!(gd, dd, epsilon = 1e-12, max_relative = 1e-12);
    }
}
