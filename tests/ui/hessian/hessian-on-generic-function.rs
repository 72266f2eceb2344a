use autograd::differentiable;
use autograd::num_traits::Float;

#[differentiable(hessian)]
fn f<T: Float>(x: T) -> T {
    x * x
}

fn main() {}
