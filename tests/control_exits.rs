//! Control flow as people write it: `match` (integers, `bool`s, enums;
//! or-patterns, ranges, bindings, guards; as a statement and as a value),
//! `loop`, `break` (with a value, labelled), `continue` (labelled) and
//! `return` anywhere, in `for`, `while` and `loop`, with `#[checkpoint]`.
//!
//! Expected values come from closed forms (stated next to each function)
//! or from five-point central differences of the primal (`fd_support`),
//! never from the generated code; tolerances are stated at each assertion.

// A `#[differentiable]` body indexes slices in `for i in a..b` loops.
#![allow(clippy::needless_range_loop)]

#[path = "fd_support/mod.rs"]
mod fd_support;

use autograd::differentiable;
use fd_support::*;
use nalgebra::DMatrix;

/// `|a - b| <= abs + rel · max(|a|, |b|)`.
fn close(a: f64, b: f64, abs: f64, rel: f64) -> bool {
    (a - b).abs() <= abs + rel * a.abs().max(b.abs())
}

fn assert_close(what: &str, got: f64, want: f64, abs: f64, rel: f64) {
    assert!(close(got, want, abs, rel), "{what}: got {got}, want {want}");
}

/// Five-point central difference with h = 10⁻⁵ (for functions whose loops
/// amplify: 20 steps of y·1.1 make the h = 10⁻³ stencil's truncation error
/// 10⁻⁸ relative); rounding ≈ 1.5·ε·|f|/h ≈ 10⁻¹⁰·|f|.
fn fd64_fine(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    let h = 1e-5;
    let d1 = f(x + h) - f(x - h);
    let d2 = f(x + 2.0 * h) - f(x - 2.0 * h);
    (8.0 * d1 - d2) / (12.0 * h)
}

fn assert_slice_fd(what: &str, got: &[f64], f: impl Fn(&[f64]) -> f64, xs: &[f64]) {
    let want = fd64_slice(f, xs);
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_close(&format!("{what}[{i}]"), *g, *w, FD64_ABS, FD64_REL);
    }
}

// ---------------------------------------------------------------------------
// Finding 002 (fuzz-programs/findings/002-break-continue-return.rs).

/// Σ xs[i]² over the elements before the first one above `t`.
#[differentiable]
fn sum_squares_until(xs: &[f64], #[constant] t: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..xs.len() {
        if xs[i] > t {
            break;
        }
        s += xs[i] * xs[i];
    }
    s
}

/// Σ xs[i]² over the elements not above `t`.
#[differentiable]
fn sum_squares_below(xs: &[f64], #[constant] t: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..xs.len() {
        if xs[i] > t {
            continue;
        }
        s += xs[i] * xs[i];
    }
    s
}

/// x·y, or y³ when x is negative.
#[differentiable]
fn early_return(x: f64, y: f64) -> f64 {
    if x < 0.0 {
        return y * y * y;
    }
    x * y
}

#[test]
fn finding_002_loop_exits_and_early_return() {
    // Closed forms at xs = [0.5, 1.0, 2.0, 0.1], t = 1.5 (exact in f64
    // but for 0.1² = 0.010000000000000002).
    let xs = [0.5, 1.0, 2.0, 0.1];
    let (v, d) = sum_squares_until_grad(&xs, 1.5);
    assert_eq!(v, 1.25);
    assert_eq!(d, vec![1.0, 2.0, 0.0, 0.0]);
    let (v, d) = sum_squares_below_grad(&xs, 1.5);
    assert!((v - 1.26).abs() < 1e-15);
    assert_eq!(d, vec![1.0, 2.0, 0.0, 0.2]);
    assert_eq!(early_return_grad(-0.5, 2.0), (8.0, 0.0, 12.0));
    assert_eq!(early_return_grad(0.5, 2.0), (1.0, 2.0, 0.5));
}

// ---------------------------------------------------------------------------
// `match`.

/// By `k`: x², sin x, 2x, -x, or n·x; derivatives 2x, cos x, 2, -1, n.
#[differentiable]
fn by_case(x: f64, k: i32) -> f64 {
    match k {
        0 => x * x,
        1 | 2 => x.sin(),
        3..=5 => 2.0 * x,
        n if n < 0 => -x,
        n => x * n as f64,
    }
}

#[test]
fn match_as_a_value_takes_exactly_one_arm() {
    for &x in LINE64 {
        let cases: [(i32, f64, f64); 8] = [
            (0, x * x, 2.0 * x),
            (1, x.sin(), x.cos()),
            (2, x.sin(), x.cos()),
            (3, 2.0 * x, 2.0),
            (5, 2.0 * x, 2.0),
            (-4, -x, -1.0),
            (6, 6.0 * x, 6.0),
            (11, 11.0 * x, 11.0),
        ];
        for (k, value, derivative) in cases {
            let (v, dx) = by_case_grad(x, k);
            assert_close("value", v, value, CF64_ABS, CF64_REL);
            assert_close(
                &format!("d/dx at k = {k}"),
                dx,
                derivative,
                CF64_ABS,
                CF64_REL,
            );
        }
    }
}

/// A `match` on a `bool` as a statement: 3x if `up`, else x².
#[differentiable]
fn flip(x: f64, up: bool) -> f64 {
    let mut y = x;
    match up {
        true => y *= 3.0,
        false => {
            y = y * y;
        }
    }
    y
}

#[derive(Clone, Copy)]
enum Shape {
    Square,
    Cube,
    Root,
}

/// By an enum's unit variant: x², x³ or √x.
#[differentiable]
fn shaped(x: f64, #[constant] shape: Shape) -> f64 {
    let scale = match shape {
        Shape::Square | Shape::Cube => 1.0,
        Shape::Root => 0.5,
    };
    scale
        * match shape {
            Shape::Square => x * x,
            Shape::Cube => x * x * x,
            Shape::Root => x.sqrt(),
        }
}

/// An `Option` matched by variant alone, and a binding `k @ range`.
#[differentiable]
fn optional(x: f64, #[constant] limit: Option<usize>, n: usize) -> f64 {
    let cap = match limit {
        Some(_) => 2.0,
        None => 1.0,
    };
    match n {
        k @ 0..=2 => cap * x * k as f64,
        _ => cap * x.exp(),
    }
}

#[test]
fn match_on_bools_enums_and_options() {
    for &x in POS64 {
        assert_eq!(flip_grad(x, true).1, 3.0);
        assert_close("flip", flip_grad(x, false).1, 2.0 * x, CF64_ABS, CF64_REL);
        assert_close(
            "square",
            shaped_grad(x, Shape::Square).1,
            2.0 * x,
            CF64_ABS,
            CF64_REL,
        );
        assert_close(
            "cube",
            shaped_grad(x, Shape::Cube).1,
            3.0 * x * x,
            CF64_ABS,
            CF64_REL,
        );
        let root = 0.5 * 0.5 / x.sqrt();
        assert_close(
            "root",
            shaped_grad(x, Shape::Root).1,
            root,
            CF64_ABS,
            CF64_REL,
        );
        assert_eq!(optional_grad(x, Some(3), 2).1, 4.0);
        assert_eq!(optional_grad(x, None, 1).1, 1.0);
        let e = x.exp();
        assert_close(
            "option",
            optional_grad(x, Some(1), 7).1,
            2.0 * e,
            CF64_ABS,
            CF64_REL,
        );
    }
}

/// `match` inside a loop over a slice: xs[i], xs[i]² or -xs[i] by i mod 3,
/// the loop stopping (`while`) once the sum passes `cap`.
#[differentiable]
fn cyclic(xs: &[f64], #[constant] cap: f64) -> f64 {
    let mut s = 0.0;
    let mut i = 0;
    while i < xs.len() && s < cap {
        s += match i % 3 {
            0 => xs[i],
            1 => xs[i] * xs[i],
            _ => -xs[i],
        };
        i += 1;
    }
    s
}

/// A pattern binding inside a condition is not the variable of the same
/// name outside it: t = 3x; the result is t if x > 1, else 2t.
#[allow(clippy::match_single_binding)] // the binding is the point
#[differentiable]
fn shadowed(x: f64) -> f64 {
    let t = 3.0 * x;
    if (match x {
        t => t,
    }) > 1.0
    {
        t
    } else {
        2.0 * t
    }
}

#[test]
fn match_in_a_loop_and_in_a_condition() {
    let xs = [0.5, 1.5, 0.25, 2.0, -0.75, 1.25, 0.5];
    for cap in [0.4, 2.0, 5.0, 100.0] {
        let (_, d) = cyclic_grad(&xs, cap);
        assert_slice_fd("cyclic", &d, |v| cyclic(v, cap), &xs);
    }
    assert_eq!(shadowed_grad(2.0).1, 3.0);
    assert_eq!(shadowed_grad(0.5).1, 6.0);
}

// ---------------------------------------------------------------------------
// `loop` and `break` with a value.

/// x^k / k for the first k with x^k > limit: at x = 1.7, limit = 10,
/// k = 5 (1.7⁴ = 8.35, 1.7⁵ = 14.2), d/dx = x⁴.
#[differentiable]
fn first_power_above(x: f64, #[constant] limit: f64) -> f64 {
    let mut y = 1.0;
    let mut n = 0;
    loop {
        y *= x;
        n += 1;
        if y > limit {
            break y / n as f64;
        }
    }
}

/// Newton's iteration for √a until it stops moving: d/da = 1/(2√a) once
/// it has converged.
#[allow(clippy::let_and_return)] // `let x = loop { .. }` is the point
#[differentiable]
fn newton_sqrt(a: f64) -> f64 {
    let mut x = a.max(1.0);
    let root = loop {
        let next = 0.5 * (x + a / x);
        if (next - x).abs() < 1e-15 * next {
            break next;
        }
        x = next;
    };
    root
}

/// The same in `f32`, the value assigned to a variable in a branch.
#[differentiable]
fn newton_sqrt32(a: f32) -> f32 {
    let mut x = a.max(1.0);
    let mut root = a;
    let mut steps = 0;
    if a > 0.0 {
        root = loop {
            let next = 0.5 * (x + a / x);
            steps += 1;
            if (next - x).abs() <= 1e-6 * next || steps > 50 {
                break next;
            }
            x = next;
        };
    }
    root
}

#[test]
fn loop_with_a_break_value() {
    let (v, dx) = first_power_above_grad(1.7, 10.0);
    assert_close("value", v, 1.7f64.powi(5) / 5.0, CF64_ABS, CF64_REL);
    assert_close("d/dx", dx, 1.7f64.powi(4), CF64_ABS, CF64_REL);
    for &a in POS64 {
        let (v, d) = newton_sqrt_grad(a);
        assert_close("sqrt", v, a.sqrt(), 1e-14, 1e-14);
        // Quadratic convergence: the iterate's derivative is as close.
        assert_close("d sqrt", d, 0.5 / a.sqrt(), 1e-10, 1e-10);
    }
    for &a in POS32 {
        let (v, d) = newton_sqrt32_grad(a);
        assert_close("sqrt32", f64::from(v), f64::from(a).sqrt(), 1e-5, 1e-5);
        assert_close(
            "d sqrt32",
            f64::from(d),
            0.5 / f64::from(a).sqrt(),
            1e-4,
            1e-4,
        );
    }
}

// ---------------------------------------------------------------------------
// Labelled exits, `return` in nested loops, `while` with data-dependent
// trip counts.

/// Rows of an n×n grid: a negative element skips the rest of its row
/// (`continue 'rows`, skipping the row's scaling too), one above `cap`
/// stops everything (`break 'rows`).
#[differentiable]
fn grid(xs: &[f64], n: usize, #[constant] cap: f64) -> f64 {
    let mut s = 0.0;
    'rows: for i in 0..n {
        for j in 0..n {
            let v = xs[i * n + j];
            if v < 0.0 {
                continue 'rows;
            }
            if v > cap {
                break 'rows;
            }
            s += v * v;
        }
        s *= 1.5;
    }
    s
}

/// The first product xs[i]·xs[j] (i < j) above `t`, plus a tenth of those
/// before it; the sum of all tenths if there is none.
#[differentiable]
fn first_pair(xs: &[f64], #[constant] t: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..xs.len() {
        for j in (i + 1)..xs.len() {
            let p = xs[i] * xs[j];
            if p > t {
                return p + s;
            }
            s += 0.1 * p;
        }
    }
    s
}

/// A `while` whose trip count depends on the data, with `continue` and
/// `break`; the counter runs backwards over a reversed range too.
#[differentiable]
fn damped(x: f64, #[constant] tol: f64) -> f64 {
    let mut y = x;
    let mut k = 0;
    while k < 60 {
        k += 1;
        if k % 3 == 0 {
            continue;
        }
        y = y * 0.7 + 0.05 * y.sin();
        if y.abs() < tol {
            break;
        }
    }
    for i in (0..k).rev() {
        if i % 2 == 0 {
            continue;
        }
        y += 0.001 * y * i as f64;
        if i < 3 {
            break;
        }
    }
    y
}

#[test]
fn labelled_exits_nested_returns_and_data_dependent_trips() {
    let xs = [0.5, 1.0, -2.0, 0.75, 0.5, 0.25, 3.0, 1.0, 0.5];
    for cap in [0.6, 2.0, 2.5, 10.0] {
        let (_, d) = grid_grad(&xs, 3, cap);
        assert_slice_fd("grid", &d, |v| grid(v, 3, cap), &xs);
    }
    // Closed form at cap = 10: row 0 stops at -2 (0.25 + 1), row 1 whole
    // (×1.5), row 2 whole (×1.5).
    let v = grid(&xs, 3, 10.0);
    let want = ((1.25 * 1.0 + 0.5625 + 0.25 + 0.0625) * 1.5 + 9.0 + 1.0 + 0.25) * 1.5;
    assert_close("grid value", v, want, 1e-13, 1e-13);

    let ys = [0.5, 1.5, 0.25, 2.0, 0.75];
    // Away from t = 1.0, where 0.5·2.0 = t flips under a difference step.
    for t in [0.1, 1.1, 2.9, 100.0] {
        let (_, d) = first_pair_grad(&ys, t);
        assert_slice_fd("first_pair", &d, |v| first_pair(v, t), &ys);
    }
    // t = 1.0: pairs 0.75, 0.125 (tenths), then 0.5·2.0 = 1.0 is not above,
    // 0.5·0.75 = 0.375, then 1.5·0.25 = 0.375, 1.5·2.0 = 3.0 is: returns
    // 3.0 + 0.1·(0.75 + 0.125 + 1.0 + 0.375 + 0.375).
    let (v, d) = first_pair_grad(&ys, 1.0);
    assert_close("first_pair value", v, 3.0 + 0.2625, 1e-13, 1e-13);
    assert_close("d/dys[1]", d[1], 2.0 + 0.1 * (0.5 + 0.25), 1e-13, 1e-13);

    // The trip counts jump with x: a difference straddling a jump is no
    // reference, so points where the two steps disagree are left out
    // (most are not; at least 15 of the 21 must be checked).
    let mut checked = 0;
    for &x in LINE64 {
        for tol in [1e-3, 0.05, 0.3] {
            let (_, d) = damped_grad(x, tol);
            let (coarse, fine) = (
                fd64(|t| damped(t, tol), x),
                fd64_fine(|t| damped(t, tol), x),
            );
            if close(coarse, fine, 1e-7, 1e-7) {
                assert_close("damped", d, fine, FD64_ABS, FD64_REL);
                checked += 1;
            }
        }
    }
    assert!(checked >= 15, "only {checked} smooth points");
}

/// `return` from a function-level branch, from a nested branch inside a
/// `for`, and from a `while`, each with something after it.
#[differentiable]
fn returns_everywhere(x: f64, n: usize) -> f64 {
    if x > 10.0 {
        return x.ln();
    }
    let mut y = x;
    for i in 0..n {
        y = y * 1.1 + 0.1;
        if i > 2 {
            if y > 4.0 {
                return y * y;
            } else if y < -4.0 {
                return -y;
            }
        }
    }
    let mut k = 0;
    while k < n {
        y -= 0.5 * y.sin();
        if y < 0.5 {
            return 3.0 * y;
        }
        k += 1;
    }
    y + x
}

#[test]
fn return_anywhere() {
    for x in [-3.0, -0.5, 0.2, 1.3, 2.5, 3.9, 12.0] {
        for n in [0, 2, 4, 9, 20] {
            let (_, d) = returns_everywhere_grad(x, n);
            let want = fd64_fine(|t| returns_everywhere(t, n), x);
            assert_close(&format!("x = {x}, n = {n}"), d, want, FD64_ABS, FD64_REL);
        }
    }
    // Closed forms: x > 10 returns ln x.
    assert_close(
        "ln",
        returns_everywhere_grad(12.0, 5).1,
        1.0 / 12.0,
        CF64_ABS,
        CF64_REL,
    );
}

// ---------------------------------------------------------------------------
// `#[checkpoint]` on loops with exits.

/// Σ over the elements before the first above `t` of a recurrence.
#[differentiable]
fn checkpointed_for(xs: &[f64], #[constant] t: f64) -> f64 {
    let mut s = 0.0;
    #[checkpoint]
    for i in 0..xs.len() {
        if xs[i] > t {
            break;
        }
        if xs[i] < 0.0 {
            continue;
        }
        s = s * 0.9 + xs[i].sin();
    }
    s
}

/// A checkpointed `while` and `loop` with exits and a return.
#[differentiable]
fn checkpointed_while(x: f64, n: usize) -> f64 {
    let mut y = x;
    let mut k = 0;
    #[checkpoint(snapshots = 2)]
    while k < n {
        k += 1;
        if k == 3 {
            continue;
        }
        y = y.sin() + 0.5 * y;
        if y > 5.0 {
            return y;
        }
    }
    let mut m = 0;
    #[checkpoint]
    loop {
        m += 1;
        y = 0.9 * y + 0.01 * y * y;
        if m >= n {
            break;
        }
    }
    y
}

#[test]
fn checkpointed_loops_with_exits() {
    let xs = [0.5, -1.0, 1.0, 0.25, 2.0, 0.1, 0.3];
    for t in [0.3, 1.5, 3.0] {
        let (_, d) = checkpointed_for_grad(&xs, t);
        assert_slice_fd("checkpointed_for", &d, |v| checkpointed_for(v, t), &xs);
    }
    for &x in LINE64 {
        for n in [1, 3, 7, 25] {
            let (_, d) = checkpointed_while_grad(x, n);
            let want = fd64(|t| checkpointed_while(t, n), x);
            assert_close("checkpointed_while", d, want, FD64_ABS, FD64_REL);
        }
    }
}

// ---------------------------------------------------------------------------
// Matrices, `_vjp` and `_grad_acc`.

/// Element-wise powers of a matrix until their sum passes `cap`: returns early with the
/// power reached (a matrix), or the last one.
#[differentiable]
fn power_until(a: &DMatrix<f64>, n: usize, #[constant] cap: f64) -> DMatrix<f64> {
    if n == 0 {
        return a.clone();
    }
    let mut p = a.clone();
    for _ in 0..n {
        p = p.component_mul(a);
        if p.sum() > cap {
            return p * 0.5;
        }
    }
    p
}

/// The sum of `power_until`, for a scalar check.
#[differentiable]
fn power_trace(a: &DMatrix<f64>, n: usize, #[constant] cap: f64) -> f64 {
    let p = power_until(a, n, cap);
    p.sum()
}

#[test]
fn matrices_returned_from_inside_a_loop() {
    let a = DMatrix::from_row_slice(2, 2, &[0.9, 0.3, -0.2, 1.1]);
    for (n, cap) in [(0, 1.0), (3, 100.0), (5, 2.5), (5, 3.0)] {
        let (_, da) = power_trace_grad(&a, n, cap);
        for k in 0..4 {
            let want = fd64(
                |t| {
                    let mut b = a.clone();
                    b[k] = t;
                    power_trace(&b, n, cap)
                },
                a[k],
            );
            assert_close(
                &format!("n = {n}, cap = {cap}, k = {k}"),
                da[k],
                want,
                FD64_ABS,
                FD64_REL,
            );
        }
    }
    // The matrix-valued pullback with a seed of ones against the same.
    let (p, pullback) = power_until_vjp(&a, 5, 2.5);
    assert_eq!(p, power_until(&a, 5, 2.5));
    let (da,) = pullback(DMatrix::from_element(2, 2, 1.0));
    let want = fd64(
        |t| {
            let mut b = a.clone();
            b[1] = t;
            power_until(&b, 5, 2.5).sum()
        },
        a[1],
    );
    assert_close("vjp", da[1], want, FD64_ABS, FD64_REL);
}

#[test]
fn vjp_and_grad_acc_of_a_function_with_exits() {
    let xs = [0.5, 1.0, 2.0, 0.1];
    let (v, pullback) = sum_squares_until_vjp(&xs, 1.5);
    assert_eq!(v, 1.25);
    // Seed 2: twice the gradient [1, 2, 0, 0].
    let (d,) = pullback(2.0);
    assert_eq!(d, vec![2.0, 4.0, 0.0, 0.0]);

    let mut dx = [10.0, 20.0, 30.0, 40.0, 50.0];
    let value = first_pair_grad_acc(&[0.5, 1.5, 0.25, 2.0, 0.75], 1.0, &mut dx);
    assert_close("value", value, 3.2625, 1e-13, 1e-13);
    // Added to what was there: d/dys = [0.1·(1.5+0.25+2+0.75), 2 + 0.075,
    // 0.1·(0.5+1.5), 1.5 + 0.1·0.5, 0.1·0.5]; `t` is constant.
    let want = [10.45, 22.075, 30.2, 41.55, 50.05];
    for (g, w) in dx.iter().zip(want) {
        assert_close("grad_acc", *g, w, 1e-12, 1e-12);
    }
}

/// A labelled block left early: y² unless y > 1, then y + 1 in any case.
#[differentiable]
fn labelled_block(x: f64) -> f64 {
    let mut y = x;
    'done: {
        if y > 1.0 {
            break 'done;
        }
        y = y * y;
    }
    y + 1.0
}

#[test]
fn break_out_of_a_labelled_block() {
    assert_eq!(labelled_block_grad(2.0), (3.0, 1.0));
    assert_eq!(labelled_block_grad(0.5), (1.25, 1.0));
}

/// Exits under `#[cfg]`: a `return` compiled in, a `break` compiled out.
#[differentiable]
fn configured(x: f64, n: usize) -> f64 {
    #[cfg(not(any()))]
    if x > 2.0 {
        return x * x;
    }
    let mut y = x;
    for _ in 0..n {
        y *= 1.5;
        #[cfg(any())]
        if y > 1.0 {
            break;
        }
        #[cfg(not(any()))]
        if y > 3.0 {
            break;
        }
    }
    y
}

#[test]
fn exits_under_cfg() {
    // x > 2: x², d = 2x. Else y = x·1.5ᵏ for the first k with y > 3 (or n).
    assert_eq!(configured_grad(3.0, 4), (9.0, 6.0));
    assert_eq!(configured_grad(1.0, 10), (1.5f64.powi(3), 1.5f64.powi(3)));
    assert_eq!(configured_grad(0.5, 2), (0.5 * 2.25, 2.25));
}

/// A `loop` as the function's value, left by `break v` or by `return`:
/// halving x until below 1 (x/2ᵏ, d = 2⁻ᵏ), unless a step lands in
/// (0.9, 1), which returns 10·x/2ᵏ.
#[differentiable]
fn loop_value_or_return(x: f64) -> f64 {
    let mut y = x;
    loop {
        y *= 0.5;
        if y > 0.9 && y < 1.0 {
            return 10.0 * y;
        }
        if y < 1.0 {
            break y;
        }
    }
}

#[test]
fn a_loop_value_and_a_return_from_the_same_loop() {
    assert_eq!(loop_value_or_return_grad(3.0), (0.75, 0.25));
    assert_eq!(loop_value_or_return_grad(7.6), (9.5, 1.25));
    assert_eq!(loop_value_or_return_grad(0.5), (0.25, 0.5));
}

/// Exits in `match` arms, a guard on a float, and `break 'outer` out of an
/// inner `loop`: over i, by i mod 4: 0 skips (`continue`), 1 adds xᵢ² when
/// x₀ > 0.5 else xᵢ, 2 multiplies by 1.5 and leaves everything once the
/// sum passes `cap`, 3 adds 2xᵢ in an inner `loop` of two steps.
#[differentiable]
fn arms_with_exits(xs: &[f64], #[constant] cap: f64) -> f64 {
    let mut s = 0.0;
    'outer: for i in 0..xs.len() {
        match i % 4 {
            0 => continue,
            1 if xs[0] > 0.5 => s += xs[i] * xs[i],
            1 => s += xs[i],
            2 => {
                s *= 1.5;
                if s > cap {
                    break;
                }
            }
            _ => {
                let mut k = 0;
                loop {
                    s += xs[i];
                    k += 1;
                    if s > 10.0 * cap {
                        break 'outer;
                    }
                    if k == 2 {
                        break;
                    }
                }
            }
        }
    }
    s
}

/// `return` from a `match` arm at function level, inside an `if`.
#[allow(clippy::collapsible_match)] // a `return` nested in the arm is the point
#[differentiable]
fn returned_from_an_arm(x: f64, k: u8) -> f64 {
    let y = x * x;
    match k {
        0 => return y,
        1..=3 => {
            if x > 1.0 {
                return y * x;
            }
        }
        _ => {}
    }
    y + x
}

#[test]
fn exits_in_match_arms() {
    let xs = [0.75, 0.5, 1.25, 0.25, 2.0, 1.5, 0.5, 0.75, 0.25];
    for cap in [0.3, 1.0, 3.0, 100.0] {
        for sign in [1.0, -1.0] {
            let mut x = xs;
            x[0] *= sign;
            let (_, d) = arms_with_exits_grad(&x, cap);
            assert_slice_fd("arms_with_exits", &d, |v| arms_with_exits(v, cap), &x);
        }
    }
    // Closed form at cap = 100, x₀ = 0.75: s = (0.5²·1.5 + 2·0.25 + 1.5²)·1.5
    // + 2·0.75 (i = 8 is 0 mod 4: skipped).
    let (v, d) = arms_with_exits_grad(&xs, 100.0);
    assert_close("value", v, (0.375 + 0.5 + 2.25) * 1.5 + 1.5, 1e-14, 1e-14);
    assert_close("d/dx1", d[1], 2.0 * 0.5 * 1.5 * 1.5, 1e-14, 1e-14);
    assert_close("d/dx3", d[3], 2.0 * 1.5, 1e-14, 1e-14);
    assert_eq!((d[0], d[4], d[8]), (0.0, 0.0, 0.0));

    assert_eq!(returned_from_an_arm_grad(3.0, 0), (9.0, 6.0));
    assert_eq!(returned_from_an_arm_grad(3.0, 2), (27.0, 27.0));
    assert_eq!(returned_from_an_arm_grad(0.5, 2), (0.75, 2.0));
    assert_eq!(returned_from_an_arm_grad(3.0, 9), (12.0, 7.0));
}

/// A matrix as a `loop`'s value (typed, as a matrix value must be):
/// element-wise powers of A until their sum passes `cap`.
#[differentiable]
fn powers_until(a: &DMatrix<f64>, #[constant] cap: f64) -> f64 {
    let mut p = a.clone();
    let mut k = 0;
    let m: DMatrix<f64> = loop {
        p = p.component_mul(a);
        k += 1;
        if p.sum() > cap || k > 20 {
            break p * 0.5;
        }
    };
    m.sum()
}

#[test]
fn a_matrix_as_a_loop_value() {
    let a = DMatrix::from_row_slice(2, 2, &[0.9, 1.3, 0.7, 1.1]);
    for cap in [1.0, 4.0, 20.0] {
        let (_, da) = powers_until_grad(&a, cap);
        for k in 0..4 {
            let want = fd64(
                |t| {
                    let mut b = a.clone();
                    b[k] = t;
                    powers_until(&b, cap)
                },
                a[k],
            );
            assert_close(
                &format!("cap = {cap}, k = {k}"),
                da[k],
                want,
                FD64_ABS,
                FD64_REL,
            );
        }
    }
}

// `match` on a tuple: each element tested once, in order.

/// By the signs of the two inputs.
#[differentiable]
fn by_signs(a: f64, b: f64) -> f64 {
    match (a > 0.0, b > 0.0) {
        (true, true) => a * b,
        (true, false) => a,
        _ => 0.0,
    }
}

/// An integer and a constant flag, with an or-pattern, a binding and a
/// guard.
#[differentiable]
fn by_count_and_flag(a: f64, k: usize, #[constant] flag: bool) -> f64 {
    match (k, flag) {
        (0, _) => a,
        (n, true) if n > 2 => a * n as f64,
        (1 | 2, false) => a * a,
        _ => -a,
    }
}

#[test]
fn match_on_a_tuple_takes_the_first_arm_whose_elements_all_match() {
    assert_eq!(by_signs_grad(2.0, 3.0), (6.0, 3.0, 2.0));
    assert_eq!(by_signs_grad(2.0, -3.0), (2.0, 1.0, 0.0));
    assert_eq!(by_signs_grad(-2.0, 3.0), (0.0, 0.0, 0.0));
    assert_eq!(by_count_and_flag_grad(1.5, 0, true), (1.5, 1.0));
    assert_eq!(by_count_and_flag_grad(1.5, 3, true), (4.5, 3.0));
    assert_eq!(by_count_and_flag_grad(1.5, 2, true), (-1.5, -1.0));
    assert_eq!(by_count_and_flag_grad(1.5, 2, false), (2.25, 3.0));
    assert_eq!(by_count_and_flag_grad(1.5, 3, false), (-1.5, -1.0));
}

// Orderings and constant `Option` data, as people match them.

/// Smooth-L1 by `partial_cmp`, and a side by `usize::cmp`.
#[differentiable]
fn smooth_l1_by_ordering(
    r: f64,
    #[constant] beta: f64,
    #[constant] i: usize,
    #[constant] i0: usize,
) -> f64 {
    let loss = match r.abs().partial_cmp(&beta) {
        Some(std::cmp::Ordering::Less) => 0.5 * r * r / beta,
        _ => r.abs() - 0.5 * beta,
    };
    match i.cmp(&i0) {
        std::cmp::Ordering::Less => loss,
        std::cmp::Ordering::Equal => 2.0 * loss,
        std::cmp::Ordering::Greater => 3.0 * loss,
    }
}

/// Observations with gaps, each taken out with `let .. else`.
#[differentiable]
fn observed_sse(level0: f64, alpha: f64, #[constant] obs: &[Option<f64>]) -> f64 {
    let mut level = level0;
    let mut sse = 0.0;
    for &y in obs {
        let Some(v) = y else { continue };
        let err = v - level;
        sse += err * err;
        level += alpha * err;
    }
    sse
}

#[test]
fn orderings_and_constant_options_are_matched_as_rust_does() {
    // |r| < β: r²/(2β), derivative r/β; else |r| − β/2, derivative sign r.
    assert_eq!(smooth_l1_by_ordering_grad(0.5, 1.0, 0, 1), (0.125, 0.5));
    assert_eq!(smooth_l1_by_ordering_grad(-2.0, 1.0, 1, 1), (3.0, -2.0));
    assert_eq!(smooth_l1_by_ordering_grad(2.0, 1.0, 2, 1), (4.5, 3.0));
    let obs = [Some(1.0), None, Some(2.0)];
    let (value, dl, da) = observed_sse_grad(0.5, 0.25, &obs);
    assert_eq!(value.to_bits(), observed_sse(0.5, 0.25, &obs).to_bits());
    assert_fd64_close("level0", dl, fd64(|l| observed_sse(l, 0.25, &obs), 0.5));
    assert_fd64_close("alpha", da, fd64(|a| observed_sse(0.5, a, &obs), 0.25));
}

// Labelled block values (issue 35: `let v = 'a: { .. break 'a v; .. };` was
// "unsupported expression"). f(x, y) = 2xy where x > 0, else x²y, plus
// the value's own `x + y`: closed forms on each side, in every mode.
#[differentiable(jvp, hessian)]
fn labelled_value(x: f64, y: f64) -> f64 {
    let v = 'a: {
        if x > 0.0 {
            break 'a x * 2.0 * y;
        }
        x * x * y
    };
    v + x + y
}

/// (value, ∂x, ∂y, ∂²xx, ∂²xy, ∂²yy) of `labelled_value`.
fn labelled_value_closed(x: f64, y: f64) -> [f64; 6] {
    if x > 0.0 {
        [
            2.0 * x * y + x + y,
            2.0 * y + 1.0,
            2.0 * x + 1.0,
            0.0,
            2.0,
            0.0,
        ]
    } else {
        [
            x * x * y + x + y,
            2.0 * x * y + 1.0,
            x * x + 1.0,
            2.0 * y,
            2.0 * x,
            0.0,
        ]
    }
}

#[test]
fn a_labelled_block_value_in_every_mode() {
    for (x, y) in [(1.5, -0.7), (-1.25, 0.6), (0.0, 2.0)] {
        let [f, fx, fy, fxx, fxy, fyy] = labelled_value_closed(x, y);
        let (value, gx, gy) = labelled_value_grad(x, y);
        assert_eq!(value.to_bits(), labelled_value(x, y).to_bits());
        assert_close("value", value, f, 1e-15, 1e-15);
        assert_close("d/dx", gx, fx, 1e-15, 1e-15);
        assert_close("d/dy", gy, fy, 1e-15, 1e-15);
        let (value, t) = labelled_value_jvp(x, y, 0.5, -2.0);
        assert_eq!(value.to_bits(), f.to_bits());
        assert_close("jvp", t, 0.5 * fx - 2.0 * fy, 1e-15, 1e-15);
        let (value, g, h) = labelled_value_hessian(x, y);
        assert_eq!(value.to_bits(), f.to_bits());
        assert_close("gradient", g[0], fx, 1e-15, 1e-15);
        assert_close("gradient", g[1], fy, 1e-15, 1e-15);
        let want = [[fxx, fxy], [fxy, fyy]];
        for (i, row) in want.iter().enumerate() {
            for (j, w) in row.iter().enumerate() {
                assert_close("hessian", h[(i, j)], *w, 1e-15, 1e-15);
            }
        }
    }
}

/// A labelled block value left from inside a loop, its tail an `if`, and
/// assigned rather than bound: the first k < n with x·1.5^k > 2 gives
/// (x·1.5^k)², else the `if` of the tail (x³ or −x); plus x, the value
/// the variable held before.
#[differentiable(jvp, hessian)]
fn labelled_value_from_a_loop(x: f64, n: usize) -> f64 {
    let mut v = x;
    let before = v;
    v = 'found: {
        let mut y = x;
        for _ in 0..n {
            y *= 1.5;
            if y > 2.0 {
                break 'found y * y;
            }
        }
        if x > 0.0 { x * x * x } else { -x }
    };
    v + before
}

#[test]
fn a_labelled_block_value_left_from_a_loop() {
    // x = 1: y = 1.5, 2.25 > 2 at k = 2: (1.5²·x)² + x, d/dx = 2·1.5⁴·x + 1,
    // d² = 2·1.5⁴.
    let c = 1.5f64.powi(4);
    assert_eq!(
        labelled_value_from_a_loop_grad(1.0, 5),
        (c + 1.0, 2.0 * c + 1.0)
    );
    // n = 1: no exit, x³ + x: 3x² + 1, 6x.
    assert_eq!(labelled_value_from_a_loop_grad(1.0, 1), (2.0, 4.0));
    // x < 0: −x + x: 0, 0.
    assert_eq!(labelled_value_from_a_loop_grad(-0.5, 3), (0.0, 0.0));
    let (_, t) = labelled_value_from_a_loop_jvp(1.0, 5, 2.0);
    assert_close("jvp", t, 2.0 * (2.0 * c + 1.0), 1e-15, 1e-15);
    let (_, _, h) = labelled_value_from_a_loop_hessian(1.0, 5);
    assert_close("hessian", h[(0, 0)], 2.0 * c, 1e-15, 1e-15);
    let (_, _, h) = labelled_value_from_a_loop_hessian(1.0, 1);
    assert_close("hessian", h[(0, 0)], 6.0, 1e-15, 1e-15);
}

/// A labelled block as the function's value, with a `return` inside it:
/// x < −1 returns 7x; x > 1 leaves the block with x²; else sin x.
#[differentiable(jvp, hessian)]
fn labelled_tail(x: f64) -> f64 {
    'a: {
        if x < -1.0 {
            return 7.0 * x;
        }
        if x > 1.0 {
            break 'a x * x;
        }
        x.sin()
    }
}

#[test]
fn a_labelled_block_as_the_function_value() {
    assert_eq!(labelled_tail_grad(-2.0), (-14.0, 7.0));
    assert_eq!(labelled_tail_grad(3.0), (9.0, 6.0));
    let (v, d) = labelled_tail_grad(0.5);
    assert_eq!((v, d), (0.5f64.sin(), 0.5f64.cos()));
    let (_, _, h) = labelled_tail_hessian(0.5);
    assert_close("hessian", h[(0, 0)], -(0.5f64.sin()), 1e-15, 1e-15);
    let (_, _, h) = labelled_tail_hessian(3.0);
    assert_close("hessian", h[(0, 0)], 2.0, 1e-15, 1e-15);
    assert_eq!(labelled_tail_jvp(3.0, 0.5), (9.0, 3.0));
}

// A `let` closure with an early `return` (issue 35: rejected by a message
// naming `if c { return v; }`, the form written): the closure's `return`
// leaves the closure, not the function. g(v) = 0 for v < 0, else v², so
// f = g(x) + g(x − 1) + x.
#[differentiable(jvp, hessian)]
fn closure_with_return(x: f64) -> f64 {
    let g = |v: f64| {
        if v < 0.0 {
            return 0.0;
        }
        v * v
    };
    g(x) + g(x - 1.0) + x
}

/// A closure that returns from inside a loop: the first power v^k (k ≤ 4)
/// above 10, else v⁴ + 1.
#[differentiable(jvp, hessian)]
fn closure_returning_from_a_loop(x: f64) -> f64 {
    let first_above = |v: f64| -> f64 {
        let mut p = v;
        for _ in 0..3 {
            p *= v;
            if p > 10.0 {
                return p;
            }
        }
        p + 1.0
    };
    first_above(x) * 2.0
}

#[test]
fn a_closure_with_an_early_return() {
    // x = 2: g(2) + g(1) + 2 = 4 + 1 + 2, d = 4 + 2 + 1, d² = 4.
    assert_eq!(closure_with_return_grad(2.0), (7.0, 7.0));
    // x = 0.5: g(0.5) + 0 + 0.5, d = 1 + 1, d² = 2.
    assert_eq!(closure_with_return_grad(0.5), (0.75, 2.0));
    // x = −1: 0 + 0 − 1, d = 1.
    assert_eq!(closure_with_return_grad(-1.0), (-1.0, 1.0));
    assert_eq!(closure_with_return_jvp(2.0, 3.0), (7.0, 21.0));
    let (_, _, h) = closure_with_return_hessian(2.0);
    assert_close("hessian", h[(0, 0)], 4.0, 1e-15, 1e-15);
    let (_, _, h) = closure_with_return_hessian(-1.0);
    assert_close("hessian", h[(0, 0)], 0.0, 1e-15, 1e-15);

    // x = 2.5: 2.5³ = 15.625 > 10: 2x³, 6x², 12x.
    let x = 2.5f64;
    assert_eq!(
        closure_returning_from_a_loop_grad(x),
        (2.0 * x.powi(3), 6.0 * x * x)
    );
    // x = 1.5: 1.5⁴ = 5.06: 2(x⁴ + 1), 8x³, 24x².
    let x = 1.5f64;
    assert_eq!(
        closure_returning_from_a_loop_grad(x),
        (2.0 * (x.powi(4) + 1.0), 8.0 * x.powi(3))
    );
    let (_, t) = closure_returning_from_a_loop_jvp(2.5, 1.0);
    assert_close("jvp", t, 6.0 * 2.5 * 2.5, 1e-15, 1e-15);
    let (_, _, h) = closure_returning_from_a_loop_hessian(1.5);
    assert_close("hessian", h[(0, 0)], 24.0 * 1.5 * 1.5, 1e-15, 1e-15);
}
