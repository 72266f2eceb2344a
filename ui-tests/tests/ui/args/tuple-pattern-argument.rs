use autograd::differentiable;

#[differentiable]
fn product((x, y): (f64, f64)) -> f64 {
    x * y
}

fn main() {}
