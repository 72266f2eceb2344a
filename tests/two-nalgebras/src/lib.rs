//! Two nalgebras meeting in `#[differentiable]` functions: one error, at
//! the first function's matrix type (the second function's error is the
//! same, at its own signature). Calls of the generated items compile
//! against stand-ins, adding no error.

use autograd::differentiable;
use nalgebra::{DMatrix, DVector};

#[differentiable]
pub fn loss(w: &DMatrix<f64>, x: &DMatrix<f64>) -> f64 {
    (w * x).sum()
}

pub fn uses_the_gradient(w: &DMatrix<f64>, x: &DMatrix<f64>) -> f64 {
    let (value, d_w, _) = loss_grad(w, x);
    value + d_w.sum()
}

#[differentiable]
pub fn quadratic(m: &DMatrix<f64>, #[constant] v: &DVector<f64>) -> f64 {
    v.dot(&(m * v))
}
