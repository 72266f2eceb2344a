//! A function path passed to `map` in a `hessian` function (finding 007
//! of the random programs): `z.map(f64::tanh)` on a `DVector`, and
//! `x.iter().copied().map(f64::exp)` on a slice. The second-order twin
//! rewrites `f64` into its scalar and took the path for a constant, which
//! `map` rejected ("`map` takes a closure `|v| ...` or a function path").
//!
//! Expected: `_hvp` against central differences of `_grad` (step 1e-5,
//! tolerance 1e-7), `_hessian` symmetric and equal to `_hvp` on unit
//! vectors, values bit for bit the primal's.

use autograd::differentiable;
use nalgebra::{DMatrix, DVector};

#[differentiable(hessian)]
fn layer(w: &DMatrix<f64>, x: &DVector<f64>) -> f64 {
    let h = (w * x).map(f64::tanh);
    h.sum() + 0.5 * h.map(f64::sin).sum()
}

#[differentiable(hessian)]
fn exps(a: f64, x: &[f64]) -> f64 {
    let s: f64 = x.iter().copied().map(f64::exp).sum();
    a * s + (a * x[0] + x[1]).tanh()
}

/// Constants of the float passed to methods (`f64::EPSILON`,
/// `f64::MIN_POSITIVE`) stay constants next to a function path: the twin
/// asks the rule table which paths are the float's functions.
#[differentiable(hessian)]
fn paths(x: &DVector<f64>, a: f64) -> f64 {
    let t = x.map(f64::tanh);
    t.sum() * a.max(f64::EPSILON) + (a * a).max(f64::MIN_POSITIVE).ln()
}

/// Flat: w (2×2, column-major), x (2).
fn layer_flat(v: &[f64]) -> (DMatrix<f64>, DVector<f64>) {
    (
        DMatrix::from_column_slice(2, 2, &v[..4]),
        DVector::from_column_slice(&v[4..]),
    )
}

fn layer_grad_flat(v: &[f64]) -> Vec<f64> {
    let (w, x) = layer_flat(v);
    let (_, dw, dx) = layer_grad(&w, &x);
    dw.iter().chain(dx.iter()).copied().collect()
}

fn exps_grad_flat(v: &[f64]) -> Vec<f64> {
    let (_, da, dx) = exps_grad(v[0], &v[1..]);
    std::iter::once(da).chain(dx).collect()
}

/// Central differences of `grad` along `t`.
fn fd_of_grad(grad: fn(&[f64]) -> Vec<f64>, v: &[f64], t: &[f64]) -> Vec<f64> {
    let h = 1e-5;
    let at = |s: f64| -> Vec<f64> {
        let p: Vec<f64> = v.iter().zip(t).map(|(v, t)| v + s * t).collect();
        grad(&p)
    };
    at(h)
        .iter()
        .zip(at(-h))
        .map(|(a, b)| (a - b) / (2.0 * h))
        .collect()
}

#[test]
fn map_of_a_function_path_in_a_matrix_hessian() {
    let v = [0.3, -0.7, 0.5, 1.1, 0.8, -0.4];
    let (w, x) = layer_flat(&v);
    let t = [0.5, -1.0, 0.25, 0.75, -0.5, 1.0];
    let (tw, tx) = layer_flat(&t);
    let (value, gw, gx, hw, hx) = layer_hvp(&w, &x, &tw, &tx);
    assert_eq!(value.to_bits(), layer(&w, &x).to_bits());
    let g: Vec<f64> = gw.iter().chain(gx.iter()).copied().collect();
    let grad = layer_grad_flat(&v);
    for (a, b) in g.iter().zip(&grad) {
        assert!((a - b).abs() < 1e-13, "the gradient of _hvp is _grad's");
    }
    let hv: Vec<f64> = hw.iter().chain(hx.iter()).copied().collect();
    let fd = fd_of_grad(layer_grad_flat, &v, &t);
    for i in 0..6 {
        assert!(
            (hv[i] - fd[i]).abs() < 1e-7,
            "(H·v)[{i}] = {} but {}",
            hv[i],
            fd[i]
        );
    }
    let (hvalue, _, h) = layer_hessian(&w, &x);
    assert_eq!(hvalue.to_bits(), value.to_bits());
    for i in 0..6 {
        for j in 0..6 {
            assert!((h[(i, j)] - h[(j, i)]).abs() < 1e-13);
        }
        let row: f64 = (0..6).map(|j| h[(i, j)] * t[j]).sum();
        assert!((row - hv[i]).abs() < 1e-12);
    }
}

#[test]
fn iterator_map_of_a_function_path_in_a_hessian() {
    let v = [0.6, 0.2, -0.9, 0.4];
    let t = [1.0, -0.5, 0.25, 0.75];
    let (value, ga, gx, ha, hx) = exps_hvp(v[0], &v[1..], t[0], &t[1..]);
    assert_eq!(value.to_bits(), exps(v[0], &v[1..]).to_bits());
    let grad = exps_grad_flat(&v);
    let g: Vec<f64> = std::iter::once(ga).chain(gx).collect();
    for (a, b) in g.iter().zip(&grad) {
        assert!((a - b).abs() < 1e-13);
    }
    let hv: Vec<f64> = std::iter::once(ha).chain(hx).collect();
    let fd = fd_of_grad(exps_grad_flat, &v, &t);
    for i in 0..4 {
        assert!(
            (hv[i] - fd[i]).abs() < 1e-7,
            "(H·v)[{i}] = {} but {}",
            hv[i],
            fd[i]
        );
    }
    // Closed form: ∂²/∂a² = −2 tanh u · sech² u · x0², u = a·x0 + x1.
    let u = v[0] * v[1] + v[2];
    let sech2 = 1.0 - u.tanh().powi(2);
    let (_, _, h) = exps_hessian(v[0], &v[1..]);
    assert!((h[(0, 0)] - v[1] * v[1] * (-2.0 * u.tanh() * sech2)).abs() < 1e-12);
}

#[test]
fn function_paths_next_to_float_constants_in_a_hessian() {
    let (x, a) = (DVector::from_vec(vec![0.3, -0.8]), 1.7);
    let (t, ta) = (DVector::from_vec(vec![0.5, 1.0]), -0.25);
    let (value, _, _, hx, ha) = paths_hvp(&x, a, &t, ta);
    assert_eq!(value.to_bits(), paths(&x, a).to_bits());
    // Closed form: f = a·Σ tanh xᵢ + 2 ln a (a > ε), so
    // H = [[−2a·tanh xᵢ·sech² xᵢ δᵢⱼ, sech² xᵢ], [sech² xⱼ, −2/a²]].
    let sech2 = |v: f64| 1.0 - v.tanh().powi(2);
    for i in 0..2 {
        let expected = -2.0 * a * x[i].tanh() * sech2(x[i]) * t[i] + sech2(x[i]) * ta;
        assert!(
            (hx[i] - expected).abs() < 1e-12,
            "(H·v)[{i}] = {} but {expected}",
            hx[i]
        );
    }
    let expected = sech2(x[0]) * t[0] + sech2(x[1]) * t[1] - 2.0 / (a * a) * ta;
    assert!(
        (ha - expected).abs() < 1e-12,
        "(H·v)[a] = {ha} but {expected}"
    );
}
