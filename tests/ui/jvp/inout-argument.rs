use autograd::differentiable;

// Forward mode does not take in-out arguments yet.
#[differentiable(jvp)]
fn scale(x: &mut f64, k: f64) -> f64 {
    *x *= k;
    *x
}

fn main() {}
