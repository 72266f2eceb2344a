//! `Option` locals of a float in a `#[differentiable]` body (issue 14): a
//! previous value carried through a loop, a running best, a slice's end
//! held in a variable; read with `if let`, `match`, `unwrap_or`,
//! `is_some`, `let .. else`. Values are the primal's bit for bit;
//! gradients are checked against five-point central differences of the
//! primal (`fd_support`, tolerance `FD64_*`) or closed forms (exact where
//! the arithmetic is).

#[path = "fd_support/mod.rs"]
mod fd_support;

use autograd::differentiable;
use fd_support::*;

/// Total variation, the previous element carried as an `Option`.
#[differentiable]
fn total_variation(x: &[f64], eps: f64) -> f64 {
    let mut prev: Option<f64> = None;
    let mut tv = 0.0;
    for &v in x {
        if let Some(p) = prev {
            tv += ((v - p).powi(2) + eps * eps).sqrt();
        }
        prev = Some(v);
    }
    tv
}

/// A running maximum, the `Option` untyped and rebuilt by a `match`.
#[differentiable]
fn best_squared(x: &[f64]) -> f64 {
    let mut best = None;
    for &v in x {
        best = Some(match best {
            Some(b) => v.max(b),
            None => v,
        });
    }
    let Some(b) = best else { return 0.0 };
    b * b + best.unwrap_or(1.0)
}

/// A relative move from the first element, the `Option` held.
#[differentiable]
fn relative_moves(x: &[f64], scale: f64) -> f64 {
    let head = x.first();
    let base = if let Some(v) = head { *v } else { 1.0 };
    x.iter().map(|v| (v / base - 1.0) * scale).sum::<f64>()
}

/// An `Option` reset to `None` and tested with `is_some`, beside a user
/// variable named like the macro's flag.
#[differentiable]
fn gated_sum(x: &[f64], gate: f64) -> f64 {
    let mut pending: Option<f64> = None;
    let pending_is_some = 3.0;
    let mut s = 0.0;
    for &v in x {
        if v > gate {
            pending = Some(v * gate);
        } else if pending.is_some() {
            s += pending.unwrap_or(0.0) * v;
            pending = None;
        }
    }
    if pending.is_none() {
        s * pending_is_some
    } else {
        s
    }
}

/// In a generic function: the value starts from the scalar's zero.
#[differentiable]
fn last_positive<T: num_traits::Float>(x: &[T]) -> T {
    let mut last: Option<T> = None;
    for &v in x {
        if v > T::zero() {
            last = Some(v);
        }
    }
    match last {
        Some(v) => v * v,
        None => T::zero(),
    }
}

/// To second order.
#[differentiable(jvp, hessian)]
fn smoothed_steps(x: &[f64]) -> f64 {
    let mut prev: Option<f64> = None;
    let mut s = 0.0;
    for &v in x {
        s += match prev {
            Some(p) => (v - p) * (v - p) * v,
            None => v,
        };
        prev = Some(v);
    }
    s
}

fn fd_close(got: &[f64], f: impl Fn(&[f64]) -> f64, x: &[f64]) {
    assert_all_fd64_close("gradient", got, &fd64_slice(f, x));
}

#[test]
fn a_previous_value_carried_through_a_loop() {
    for (x, eps) in [
        (vec![0.5, 1.3, -0.7, 2.0], 0.1),
        (vec![1.1], 0.01),
        (vec![], 0.3),
    ] {
        let (value, dx, deps) = total_variation_grad(&x, eps);
        assert_eq!(value.to_bits(), total_variation(&x, eps).to_bits());
        fd_close(&dx, |q| total_variation(q, eps), &x);
        assert_fd64_close("eps", deps, fd64(|e| total_variation(&x, e), eps));
    }

    let (value, dx) = smoothed_steps_grad(&[0.5, 1.5, 1.0]);
    assert_eq!(value.to_bits(), smoothed_steps(&[0.5, 1.5, 1.0]).to_bits());
    fd_close(&dx, smoothed_steps, &[0.5, 1.5, 1.0]);
}

#[test]
fn a_running_best_and_let_else() {
    let x = [2.0, 2.5, 1.5];
    // max = x1: f = x1² + x1, f' = 2·x1 + 1 = 6 exactly.
    assert_eq!(best_squared_grad(&x), (8.75, vec![0.0, 6.0, 0.0]));
    assert_eq!(best_squared_grad(&[]), (0.0, vec![]));
}

#[test]
fn a_slice_end_held_in_a_variable() {
    for (x, s) in [(vec![2.0, 2.5, 1.5], 0.7), (vec![1.0, 0.3, 0.9, 1.2], 2.0)] {
        let (value, dx, ds) = relative_moves_grad(&x, s);
        assert_eq!(value.to_bits(), relative_moves(&x, s).to_bits());
        fd_close(&dx, |q| relative_moves(q, s), &x);
        assert_fd64_close("scale", ds, fd64(|t| relative_moves(&x, t), s));
    }
}

#[test]
fn reset_to_none_and_is_some() {
    let x = [0.2, 1.5, 0.3, 2.0, 0.1, 0.4];
    for gate in [0.5, 1.7, 3.0] {
        let (value, dx, dg) = gated_sum_grad(&x, gate);
        assert_eq!(value.to_bits(), gated_sum(&x, gate).to_bits());
        fd_close(&dx, |q| gated_sum(q, gate), &x);
        assert_fd64_close("gate", dg, fd64(|g| gated_sum(&x, g), gate));
    }
}

#[test]
fn in_a_generic_function() {
    let (value, dx) = last_positive_grad(&[0.5, -1.0, 0.75, -0.25]);
    assert_eq!((value, dx), (0.5625, vec![0.0, 0.0, 1.5, 0.0]));
    let (value, dx) = last_positive_grad(&[-0.5_f32]);
    assert_eq!((value, dx), (0.0, vec![0.0]));
}

#[test]
fn to_second_order() {
    // f = x0 + (x1 − x0)²·x1 + (x2 − x1)²·x2.
    let x = [0.5, 1.5, 1.0];
    let (value, g, h) = smoothed_steps_hessian(&x);
    assert_eq!(value.to_bits(), smoothed_steps(&x).to_bits());
    let (d1, d2) = (x[1] - x[0], x[2] - x[1]);
    let grad = [
        1.0 - 2.0 * d1 * x[1],
        2.0 * d1 * x[1] + d1 * d1 - 2.0 * d2 * x[2],
        2.0 * d2 * x[2] + d2 * d2,
    ];
    assert_all_fd64_close("gradient", g.as_slice(), &grad);
    let hess = [
        [2.0 * x[1], -2.0 * x[1] - 2.0 * d1, 0.0],
        [
            -2.0 * x[1] - 2.0 * d1,
            2.0 * x[1] + 4.0 * d1 + 2.0 * x[2],
            -2.0 * x[2] - 2.0 * d2,
        ],
        [0.0, -2.0 * x[2] - 2.0 * d2, 2.0 * x[2] + 4.0 * d2],
    ];
    for i in 0..3 {
        for j in 0..3 {
            assert_fd64_close("hessian", h[(i, j)], hess[i][j]);
        }
    }
}

/// The running best rebuilt by a guarded `match` and by an `if`, assigned
/// whole: the assignment goes into each branch.
#[differentiable]
fn best_smoothed(scores: &[f64], temp: f64) -> f64 {
    let mut best: Option<f64> = None;
    let mut second = None;
    for &s in scores {
        let smooth = (s / temp).tanh();
        best = match best {
            None => Some(smooth),
            Some(b) if smooth > b => Some(smooth),
            Some(b) => Some(b),
        };
        second = if smooth < 0.5 {
            Some(smooth * temp)
        } else {
            second
        };
    }
    best.unwrap_or(0.0) * temp + second.unwrap_or(1.0)
}

#[test]
fn an_option_assigned_from_a_guarded_match_and_an_if() {
    for (x, t) in [
        (vec![0.2, 0.9, 0.4], 1.5),
        (vec![-0.3, -0.1, -0.7, 0.05], 0.8),
        (vec![2.0, 3.0], 0.5),
    ] {
        let (value, dx, dt) = best_smoothed_grad(&x, t);
        assert_eq!(value.to_bits(), best_smoothed(&x, t).to_bits());
        fd_close(&dx, |q| best_smoothed(q, t), &x);
        assert_fd64_close("temp", dt, fd64(|u| best_smoothed(&x, u), t));
    }
}

/// One name for two `Option` locals and, after each, for the value it
/// unwraps to (`let best = best.unwrap_or(c);`), a test of one beside a
/// comparison with its value (`low.is_none() || v * c < low.unwrap_or(0.0)`).
/// Each `let` binds its own local where it stands (issue 36, step 5: the
/// rewrite before lowering took only a name bound once in the body, and
/// this function did not compile).
#[differentiable(jvp, hessian)]
fn peak_times_floor(x: &[f64], c: f64) -> f64 {
    let mut best = None;
    for &v in x {
        best = Some(match best {
            Some(b) if b > v => b,
            _ => v,
        });
    }
    let best = best.unwrap_or(c);
    let mut low: Option<f64> = None;
    for &v in x {
        if low.is_none() || v * c < low.unwrap_or(0.0) {
            low = Some(v * c);
        }
    }
    let low = low.unwrap_or(1.0);
    best * low
}

/// `peak_times_floor` in closed form, for `c > 0`: `c·x[i]·x[j]` with `x[i]`
/// the maximum and `x[j]` the minimum, `c` for an empty `x`; its gradient
/// over `(x, c)` and Hessian.
fn peak_times_floor_closed(x: &[f64], c: f64) -> (f64, Vec<f64>, Vec<Vec<f64>>) {
    let n = x.len();
    let mut g = vec![0.0; n + 1];
    let mut h = vec![vec![0.0; n + 1]; n + 1];
    if n == 0 {
        g[0] = 1.0;
        return (c, g, h);
    }
    let i = (0..n).fold(0, |i, k| if x[k] > x[i] { k } else { i });
    let j = (0..n).fold(0, |j, k| if x[k] < x[j] { k } else { j });
    g[i] += c * x[j];
    g[j] += c * x[i];
    g[n] = x[i] * x[j];
    h[i][j] += c;
    h[j][i] += c;
    h[i][n] += x[j];
    h[n][i] += x[j];
    h[j][n] += x[i];
    h[n][j] += x[i];
    (c * x[i] * x[j], g, h)
}

#[test]
fn one_name_for_several_option_locals() {
    use approx::assert_relative_eq;
    let c = 0.6;
    for x in [vec![0.5, 2.0, -0.3, 1.1], vec![1.5], vec![]] {
        let n = x.len();
        let (f, g, h) = peak_times_floor_closed(&x, c);
        let (v, dx, dc) = peak_times_floor_grad(&x, c);
        assert_eq!(v.to_bits(), peak_times_floor(&x, c).to_bits());
        assert_relative_eq!(v, f, epsilon = 1e-12, max_relative = 1e-12);
        for k in 0..n {
            assert_relative_eq!(dx[k], g[k], epsilon = 1e-12, max_relative = 1e-12);
        }
        assert_relative_eq!(dc, g[n], epsilon = 1e-12, max_relative = 1e-12);
        let (_, _, hess) = peak_times_floor_hessian(&x, c);
        for a in 0..=n {
            for b in 0..=n {
                assert_relative_eq!(hess[(a, b)], h[a][b], epsilon = 1e-12, max_relative = 1e-12);
            }
        }
        let dir: Vec<f64> = (0..n).map(|k| 0.4 - 0.3 * k as f64).collect();
        let (v, t) = peak_times_floor_jvp(&x, c, &dir, -0.7);
        assert_relative_eq!(v, f, epsilon = 1e-12, max_relative = 1e-12);
        let want = (0..n).map(|k| g[k] * dir[k]).sum::<f64>() - 0.7 * g[n];
        assert_relative_eq!(t, want, epsilon = 1e-12, max_relative = 1e-12);
    }
}

/// Two `Option` locals matched as a pair, one copied into another local,
/// the copy tested by `matches!` with a guard and by a guarded `match`
/// (issue 36, step 5: the pair's scrutinees and the copy are copies of the
/// locals, lowered as such; before, a read other than a test was an error,
/// and a local named in `matches!` was left an `Option` no arm could read).
#[differentiable(jvp)]
fn above_and_below(x: &[f64], t: f64) -> f64 {
    let mut above = None;
    let mut below: Option<f64> = None;
    for &v in x {
        if v > t {
            above = Some(v);
        } else {
            below = Some(v);
        }
    }
    let last_above = above;
    let s = match (above, below) {
        (Some(a), Some(b)) => a * b,
        (Some(a), None) => a * t,
        (None, Some(b)) => b + t,
        (None, None) => t,
    };
    let big = matches!(last_above, Some(a) if a > 2.0 * t);
    match last_above {
        Some(a) if big => s + a * a,
        _ => s,
    }
}

/// `above_and_below` in closed form: `a` the last element above `t`, `b`
/// the last other one; its gradient over `(x, t)`.
fn above_and_below_closed(x: &[f64], t: f64) -> (f64, Vec<f64>) {
    let n = x.len();
    let mut g = vec![0.0; n + 1];
    let ia = (0..n).rev().find(|&k| x[k] > t);
    let ib = (0..n).rev().find(|&k| x[k] <= t);
    let mut f = match (ia, ib) {
        (Some(i), Some(j)) => {
            g[i] += x[j];
            g[j] += x[i];
            x[i] * x[j]
        }
        (Some(i), None) => {
            g[i] += t;
            g[n] += x[i];
            x[i] * t
        }
        (None, Some(j)) => {
            g[j] += 1.0;
            g[n] += 1.0;
            x[j] + t
        }
        (None, None) => {
            g[n] += 1.0;
            t
        }
    };
    if let Some(i) = ia.filter(|&i| x[i] > 2.0 * t) {
        g[i] += 2.0 * x[i];
        f += x[i] * x[i];
    }
    (f, g)
}

#[test]
fn option_locals_matched_as_a_pair_and_copied() {
    use approx::assert_relative_eq;
    let t = 0.8;
    // Both, a big `above`; both, a small one; above only; below only; none.
    for x in [
        vec![0.3, 2.5, 0.1],
        vec![1.2, 0.4, 0.2],
        vec![0.9, 1.0],
        vec![0.5, -0.2],
        vec![],
    ] {
        let n = x.len();
        let (f, g) = above_and_below_closed(&x, t);
        let (v, dx, dt) = above_and_below_grad(&x, t);
        assert_eq!(v.to_bits(), above_and_below(&x, t).to_bits());
        assert_relative_eq!(v, f, epsilon = 1e-12, max_relative = 1e-12);
        for k in 0..n {
            assert_relative_eq!(dx[k], g[k], epsilon = 1e-12, max_relative = 1e-12);
        }
        assert_relative_eq!(dt, g[n], epsilon = 1e-12, max_relative = 1e-12);
        let dir: Vec<f64> = (0..n).map(|k| 0.5 + 0.25 * k as f64).collect();
        let (v, tangent) = above_and_below_jvp(&x, t, &dir, 0.3);
        assert_relative_eq!(v, f, epsilon = 1e-12, max_relative = 1e-12);
        let want = (0..n).map(|k| g[k] * dir[k]).sum::<f64>() + 0.3 * g[n];
        assert_relative_eq!(tangent, want, epsilon = 1e-12, max_relative = 1e-12);
    }
}
