use autograd::differentiable;
use autograd::num_traits::Float;

// `T::from(x)` of a differentiable `x` would drop its derivative.
#[differentiable]
fn convert<T: Float>(x: T) -> T {
    T::from(x).unwrap() * x
}

fn main() {}
