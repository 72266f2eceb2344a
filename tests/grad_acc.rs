//! `NAME_grad_acc`: the gradient added into caller-provided buffers.
//!
//! Expected values are closed forms (exact where the arithmetic is).

use autograd::differentiable;
use autograd::solve::{SolveError, bisect};
use nalgebra::{DMatrix, DVector};

/// Σ wᵢ·xᵢ² + a·b.
#[differentiable]
fn weighted(x: &[f64], #[constant] w: &[f64], a: f64, b: f64) -> f64 {
    let mut s = a * b;
    for i in 0..x.len() {
        s += w[i] * x[i] * x[i];
    }
    s
}

#[test]
fn adds_into_scalar_and_slice_buffers() {
    let (x, w) = ([1.0, 2.0, 3.0], [0.5, 1.0, 2.0]);
    let (mut dx, mut da, mut db) = ([10.0, 20.0, 30.0], 1.0, -1.0);
    let value = weighted_grad_acc(&x, &w, 2.0, 3.0, &mut dx, &mut da, &mut db);
    assert_eq!(value, weighted(&x, &w, 2.0, 3.0));
    // ∂/∂xᵢ = 2wᵢxᵢ, ∂/∂a = b, ∂/∂b = a: added to what was there.
    assert_eq!(dx, [11.0, 24.0, 42.0]);
    assert_eq!((da, db), (4.0, 1.0));
    // A second call adds again: a sum over data points.
    weighted_grad_acc(&x, &w, 2.0, 3.0, &mut dx, &mut da, &mut db);
    assert_eq!(dx, [12.0, 28.0, 54.0]);
    assert_eq!((da, db), (7.0, 3.0));
}

#[test]
#[should_panic(expected = "buffer's length differs")]
fn a_buffer_of_another_length_is_refused() {
    let mut dx = [0.0; 2];
    let (mut da, mut db) = (0.0, 0.0);
    weighted_grad_acc(
        &[1.0, 2.0, 3.0],
        &[1.0; 3],
        1.0,
        1.0,
        &mut dx,
        &mut da,
        &mut db,
    );
}

/// Σ (W·v)ᵢ.
#[differentiable]
fn layer_sum(w: &DMatrix<f64>, v: DVector<f64>) -> f64 {
    (w * v).sum()
}

#[test]
fn adds_into_matrix_buffers() {
    let w = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 3.0, 4.0]);
    let v = DVector::from_vec(vec![1.0, -1.0]);
    let mut dw = DMatrix::repeat(2, 2, 1.0);
    let mut dv = DVector::zeros(2);
    let value = layer_sum_grad_acc(&w, v.clone(), &mut dw, &mut dv);
    assert_eq!(value, -2.0);
    // ∂/∂W_ij = v_j, ∂/∂v_j = Σ_i W_ij.
    assert_eq!(dw, DMatrix::from_row_slice(2, 2, &[2.0, 0.0, 2.0, 0.0]));
    assert_eq!(dv, DVector::from_vec(vec![4.0, 6.0]));
}

#[differentiable]
fn cube(x: f32) -> f32 {
    x * x * x
}

#[test]
fn f32_buffers() {
    let mut dx = 0.5_f32;
    assert_eq!(cube_grad_acc(2.0, &mut dx), 8.0);
    assert_eq!(dx, 12.5);
}

/// r(x, c) = x² − c.
#[differentiable]
fn residual(x: f64, c: f64) -> f64 {
    x * x - c
}

#[differentiable(implicit = residual)]
fn root(c: f64) -> Result<f64, SolveError> {
    bisect(|x| residual(x, c), 0.0, c.max(1.0), 1e-14)
}

#[test]
fn solvers_return_their_result() {
    let mut dc = 0.0;
    let value = root_grad_acc(4.0, &mut dc).expect("a root");
    // √c: d/dc = 1/(2√c) = 1/4.
    assert!((value - 2.0).abs() < 1e-13);
    assert!((dc - 0.25).abs() < 1e-12);
    assert!(root_grad_acc(-1.0, &mut dc).is_err());
}

/// Eight arguments: the user allows clippy's `too_many_arguments` on the
/// function, and the generated wrappers (as many arguments or more) must
/// not trip it under `cargo clippy -D warnings` either.
#[allow(clippy::too_many_arguments)]
#[differentiable]
fn eight(a: f64, b: f64, c: f64, d: f64, e: f64, f: f64, g: f64, h: f64) -> f64 {
    a * b + c * d + e * f + g * h
}

#[test]
fn many_arguments() {
    let (value, da, db, dc, dd, de, df, dg, dh) =
        eight_grad(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0);
    assert_eq!(value, 100.0);
    assert_eq!(
        (da, db, dc, dd, de, df, dg, dh),
        (2.0, 1.0, 4.0, 3.0, 6.0, 5.0, 8.0, 7.0)
    );
    assert!(eight_check(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0).is_within(1e-6, 1e-6));
}
