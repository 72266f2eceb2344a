use autograd::differentiable;
use autograd::nalgebra::DMatrix;

#[differentiable(hessian)]
fn f(m: &DMatrix<f64>) -> f64 {
    m.sum()
}

fn main() {}
