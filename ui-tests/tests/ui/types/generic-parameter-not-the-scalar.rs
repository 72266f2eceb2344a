use autograd::differentiable;
use autograd::num_traits::Float;

#[differentiable]
fn unused<T: Float>(x: f64) -> f64 {
    x * x
}

fn main() {}
