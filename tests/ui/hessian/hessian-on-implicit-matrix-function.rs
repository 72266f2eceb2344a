use autograd::differentiable;
use autograd::nalgebra::DVector;
use autograd::solve::{SolveError, bisect};

#[differentiable(hessian)]
fn residual(x: f64, c: &DVector<f64>) -> f64 {
    x * x - c.sum()
}

#[differentiable(hessian, implicit = residual)]
fn root(c: &DVector<f64>) -> Result<f64, SolveError> {
    bisect(|x| residual(x, c), 0.0, c.sum().max(1.0), 1e-14)
}

fn main() {}
