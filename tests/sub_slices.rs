//! Sub-slices `&x[a..b]`, `&x[a..]`, `&x[..b]` (and `&x[a..b][c..]`) of
//! slice arguments, `&Vec<f64>`, `&[f64; N]`, local arrays and `Vec`s
//! (also written in loops before they are read): passed to
//! `#[differentiable]` calls, iterated, indexed, `len()` and `sum()`, in
//! every mode; and arrays passed where a slice is taken.
//!
//! Expected values come from closed forms or central differences of the
//! primal; each tolerance is stated at its assertion.

use approx::assert_relative_eq;
use autograd::{central_difference, differentiable};

/// Central differences of `f` at `x`, one per element.
fn fd(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    let mut work = x.to_vec();
    (0..x.len())
        .map(|i| {
            let d = central_difference(
                |xi: f64| {
                    work[i] = xi;
                    f(&work)
                },
                x[i],
            );
            work[i] = x[i];
            d
        })
        .collect()
}

fn close(a: &[f64], b: &[f64], tol: f64) {
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert_relative_eq!(*x, *y, epsilon = tol, max_relative = tol);
    }
}

/// Σ v[i]²·(i + 1), a callee taking a slice.
#[differentiable(jvp, hessian)]
fn weighted_squares(v: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..v.len() {
        s += v[i] * v[i] * (i + 1) as f64;
    }
    s
}

// ---------------------------------------------------------------------------
// A slice argument: passed, iterated, indexed, len, sum.

/// wsq(x[1..3]) + Σ x[2..] sin + x[..2][1]·len(x[1..4]) + sum(x[3..]).
#[differentiable(jvp, hessian)]
fn of_slice(x: &[f64]) -> f64 {
    let passed = weighted_squares(&x[1..3]);
    let mut iterated = 0.0;
    for v in &x[2..] {
        iterated += v.sin();
    }
    let head = &x[..2];
    let indexed = head[1] * x[1..4].len() as f64;
    let summed = x[3..].iter().sum::<f64>();
    passed + iterated + indexed + summed
}

fn of_slice_closed(x: &[f64]) -> (f64, Vec<f64>) {
    let n = x.len();
    let value = x[1] * x[1]
        + 2.0 * x[2] * x[2]
        + x[2..].iter().map(|v| v.sin()).sum::<f64>()
        + x[1] * 3.0
        + x[3..].iter().sum::<f64>();
    let mut g = vec![0.0; n];
    g[1] += 2.0 * x[1] + 3.0;
    g[2] += 4.0 * x[2];
    for i in 2..n {
        g[i] += x[i].cos();
    }
    for gi in g.iter_mut().skip(3) {
        *gi += 1.0;
    }
    (value, g)
}

#[test]
fn slice_argument_every_mode() {
    let x = [0.3, -1.2, 0.7, 2.0, -0.4];
    let (want, g) = of_slice_closed(&x);
    assert_relative_eq!(of_slice(&x), want, epsilon = 1e-14, max_relative = 1e-14);
    // Closed form, to rounding: 1e-14.
    let (value, dx) = of_slice_grad(&x);
    assert_relative_eq!(value, want, epsilon = 1e-14, max_relative = 1e-14);
    close(&dx, &g, 1e-14);
    let (_, pullback) = of_slice_vjp(&x);
    let (dx,) = pullback(2.0);
    close(&dx, &g.iter().map(|v| 2.0 * v).collect::<Vec<_>>(), 1e-14);
    let mut acc = vec![1.0; 5];
    of_slice_grad_acc(&x, &mut acc);
    close(&acc, &g.iter().map(|v| 1.0 + v).collect::<Vec<_>>(), 1e-14);
    assert!(of_slice_check(&x).is_within(1e-7, 1e-6));
    let dir = [1.0, -0.5, 0.25, 2.0, 0.1];
    let (value, t) = of_slice_jvp(&x, &dir);
    assert_relative_eq!(value, want, epsilon = 1e-14, max_relative = 1e-14);
    let dot: f64 = g.iter().zip(&dir).map(|(a, b)| a * b).sum();
    assert_relative_eq!(t, dot, epsilon = 1e-14, max_relative = 1e-14);
    // Hessian: diag 2 at 1, 4 at 2, −sin at 2.., against central
    // differences of the closed gradient (1e-6).
    let (_, grad, h) = of_slice_hessian(&x);
    close(grad.as_slice(), &g, 1e-14);
    for j in 0..5 {
        let col = fd(|y| of_slice_closed(y).1[j], &x);
        for i in 0..5 {
            assert_relative_eq!(h[(i, j)], col[i], epsilon = 1e-6, max_relative = 1e-6);
        }
    }
}
