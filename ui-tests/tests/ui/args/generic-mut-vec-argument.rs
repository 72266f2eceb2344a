use autograd::differentiable;
use autograd::num_traits::Float;

// An in-out `Vec<T>` in a function generic over its scalar.
#[differentiable]
fn step<T: Float>(y: &mut Vec<T>, k: T) {
    for i in 0..y.len() {
        y[i] = y[i] * k;
    }
}

fn main() {}
