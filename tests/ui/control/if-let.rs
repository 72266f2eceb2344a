use autograd::differentiable;

#[differentiable]
fn maybe_square(x: f64, n: i32) -> f64 {
    if let 2 = n { x * x } else { x }
}

fn main() {}
