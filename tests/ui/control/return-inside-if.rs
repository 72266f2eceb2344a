use autograd::differentiable;

// An early `return` would make the generated code read the arm as the
// block's value: rejected, not silently wrong.
#[differentiable]
fn clipped(x: f64) -> f64 {
    if x > 1.0 {
        return 1.0;
    }
    x
}

fn main() {
    let _ = clipped(2.0);
}
