use autograd::differentiable;

// Second order does not take in-out arguments yet.
#[differentiable(hessian)]
fn scale(x: &mut f64, k: f64) -> f64 {
    *x *= k;
    *x
}

fn main() {}
