use autograd::differentiable;
use autograd::num_traits::Float;

#[differentiable]
fn mixed<T: Float, U: Float>(x: T, y: U) -> T {
    x * T::from(y).unwrap()
}

fn main() {}
