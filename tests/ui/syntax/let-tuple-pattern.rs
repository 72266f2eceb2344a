use autograd::differentiable;

#[differentiable]
fn product(x: f64, y: f64) -> f64 {
    let (a, b) = (x, y);
    a * b
}

fn main() {}
