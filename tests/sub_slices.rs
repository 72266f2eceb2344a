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

// ---------------------------------------------------------------------------
// Other bases: `&Vec<f64>`, `&[f64; N]`, a local array, a local `Vec`
// written in a loop before its parts are read, a nested sub-slice, a
// nalgebra vector's `as_slice()`.

/// The same reads of any base, one shape: wsq(s[1..3]) + Σ sin s[2..] +
/// s[..2][1]·len(s[1..4]) + sum(s[3..]).
fn reads_closed(x: &[f64]) -> f64 {
    x[1] * x[1]
        + 2.0 * x[2] * x[2]
        + x[2..].iter().map(|v| v.sin()).sum::<f64>()
        + x[1] * 3.0
        + x[3..].iter().sum::<f64>()
}

#[differentiable(jvp, hessian)]
fn of_vec(x: &Vec<f64>) -> f64 {
    let part = &x[2..];
    weighted_squares(&x[1..3])
        + part.iter().map(|v| v.sin()).sum::<f64>()
        + x[..2][1] * x[1..4].len() as f64
        + x[3..].iter().sum::<f64>()
}

#[differentiable(jvp, hessian)]
fn of_array(x: &[f64; 5]) -> f64 {
    let mut iterated = 0.0;
    for (i, v) in x[2..].iter().enumerate() {
        iterated += v.sin() + 0.0 * i as f64;
    }
    weighted_squares(&x[1..3]) + iterated + x[..2][1] * x[1..4].len() as f64 + x[3..5].iter().sum::<f64>()
}

/// A local array and a local `Vec` written in a loop (`y[i] = 2·x[i]`,
/// `z[i] = x[i]²`), then read through sub-slices: the reads see the writes,
/// and the adjoints go to the elements written. (Not under `hessian`: a
/// body's local arrays are not yet supported by the second-order copy,
/// sub-slices or not.)
#[differentiable(jvp)]
fn of_locals(x: &[f64]) -> f64 {
    let mut y = [0.0; 5];
    let mut z = vec![0.0; 5];
    for i in 0..5 {
        y[i] = 2.0 * x[i];
        z[i] = x[i] * x[i];
    }
    let a = weighted_squares(&y[1..3]);
    let b: f64 = z[3..].iter().sum::<f64>();
    let tail = &z[..=2];
    let c = tail[2] * y[0..4].len() as f64;
    let mut d = 0.0;
    for v in &y[3..5] {
        d += v.exp();
    }
    a + b + c + d
}

fn of_locals_closed(x: &[f64]) -> f64 {
    4.0 * x[1] * x[1] + 8.0 * x[2] * x[2] + x[3] * x[3] + x[4] * x[4]
        + 4.0 * x[2] * x[2]
        + (2.0 * x[3]).exp()
        + (2.0 * x[4]).exp()
}

/// `&x[1..][1..3]`: a sub-slice of a sub-slice (x[2..4]), passed, indexed
/// and iterated.
#[differentiable(jvp, hessian)]
fn nested(x: &[f64]) -> f64 {
    let inner = &x[1..][1..3];
    let s = &x[1..5];
    weighted_squares(inner) + s[1..][2] * inner[0] + s[2..].windows(2).map(|w| w[0] * w[1]).sum::<f64>()
}

fn nested_closed(x: &[f64]) -> f64 {
    x[2] * x[2] + 2.0 * x[3] * x[3] + x[4] * x[2] + x[3] * x[4]
}

#[test]
fn every_base_against_central_differences() {
    let x = [0.3, -1.2, 0.7, 2.0, -0.4];
    let xv = x.to_vec();
    let want = fd(reads_closed, &x);
    // Central differences: 1e-7 relative.
    let (v, g) = of_vec_grad(&xv);
    assert_relative_eq!(v, reads_closed(&x), epsilon = 1e-13, max_relative = 1e-13);
    close(&g, &want, 1e-7);
    let (v, g) = of_array_grad(&x);
    assert_relative_eq!(v, reads_closed(&x), epsilon = 1e-13, max_relative = 1e-13);
    close(&g, &want, 1e-7);
    let (v, g) = of_locals_grad(&x);
    assert_relative_eq!(v, of_locals_closed(&x), epsilon = 1e-13, max_relative = 1e-13);
    close(&g, &fd(of_locals_closed, &x), 1e-7);
    let (v, g) = nested_grad(&x);
    assert_relative_eq!(v, nested_closed(&x), epsilon = 1e-13, max_relative = 1e-13);
    close(&g, &fd(nested_closed, &x), 1e-7);
}

#[test]
fn every_base_every_mode() {
    let x = [0.3, -1.2, 0.7, 2.0, -0.4];
    let dir = [1.0, -0.5, 0.25, 2.0, 0.1];
    let xv = x.to_vec();
    type Closed = fn(&[f64]) -> f64;
    let cases: [(&str, Closed); 4] = [
        ("vec", reads_closed),
        ("array", reads_closed),
        ("locals", of_locals_closed),
        ("nested", nested_closed),
    ];
    for (name, closed) in cases {
        let g = fd(closed, &x);
        let (grad, jvp, hessian, acc, check) = match name {
            "vec" => {
                let mut acc = vec![0.0; 5];
                of_vec_grad_acc(&xv, &mut acc);
                let (_, pb) = of_vec_vjp(&xv);
                (pb(1.0).0, of_vec_jvp(&xv, &dir.to_vec()).1, Some(of_vec_hessian(&xv).2), acc, of_vec_check(&xv).is_within(1e-7, 1e-6))
            }
            "array" => {
                let mut acc = [0.0; 5];
                of_array_grad_acc(&x, &mut acc);
                let (_, pb) = of_array_vjp(&x);
                (pb(1.0).0.to_vec(), of_array_jvp(&x, &dir).1, Some(of_array_hessian(&x).2), acc.to_vec(), of_array_check(&x).is_within(1e-7, 1e-6))
            }
            "locals" => {
                let mut acc = vec![0.0; 5];
                of_locals_grad_acc(&x, &mut acc);
                let (_, pb) = of_locals_vjp(&x);
                (pb(1.0).0, of_locals_jvp(&x, &dir).1, None, acc, of_locals_check(&x).is_within(1e-7, 1e-6))
            }
            _ => {
                let mut acc = vec![0.0; 5];
                nested_grad_acc(&x, &mut acc);
                let (_, pb) = nested_vjp(&x);
                (pb(1.0).0, nested_jvp(&x, &dir).1, Some(nested_hessian(&x).2), acc, nested_check(&x).is_within(1e-7, 1e-6))
            }
        };
        // Central differences: 1e-7 relative (1e-6 for the Hessian, the
        // differences of a difference quotient of the closed form).
        close(&grad, &g, 1e-7);
        close(&acc, &g, 1e-7);
        assert!(check, "{name}");
        let dot: f64 = g.iter().zip(&dir).map(|(a, b)| a * b).sum();
        assert_relative_eq!(jvp, dot, epsilon = 1e-6, max_relative = 1e-6);
        let Some(hessian) = hessian else { continue };
        for j in 0..5 {
            let col = fd(|y| fd(closed, y)[j], &x);
            for i in 0..5 {
                assert_relative_eq!(hessian[(i, j)], col[i], epsilon = 1e-4, max_relative = 1e-4);
            }
        }
    }
}
