use autograd::differentiable;
use autograd::num_traits::Float;

#[differentiable]
fn scaled<T: Float>(p: &[T], s: T) -> Vec<T> {
    p.iter().map(|&v| v * s).collect()
}

// A function generic over its scalar returning several numbers has a
// pullback, not a Jacobian: one error at the call saying what to call.
fn main() {
    let _ = scaled_jacobian(&[1.0, 2.0], 3.0);
}
