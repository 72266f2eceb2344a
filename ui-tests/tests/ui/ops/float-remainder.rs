use autograd::differentiable;

#[differentiable]
fn wrapped(x: f64) -> f64 {
    x % 1.0
}

fn main() {}
