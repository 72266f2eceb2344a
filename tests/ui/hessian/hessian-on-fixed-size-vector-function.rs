use autograd::differentiable;
use autograd::nalgebra::Vector3;

#[differentiable(hessian)]
fn f(v: &Vector3<f64>) -> f64 {
    v.norm_squared()
}

fn main() {}
