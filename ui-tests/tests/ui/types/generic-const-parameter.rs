// A length that no argument's type names: calls could not infer it.
use autograd::differentiable;
use autograd::num_traits::Float;

#[differentiable]
fn sum<T: Float, const N: usize>(x: T) -> T {
    x * T::from(N).unwrap()
}

fn main() {}
