use autograd::differentiable;
use nalgebra::SVector;

#[differentiable(jvp, hessian)]
fn half_norm_squared<const N: usize>(x: &SVector<f64, N>) -> f64 {
    0.5 * x.norm_squared()
}

fn main() {}
