use autograd::differentiable;

#[differentiable]
fn both(x: f64, y: f64) -> (f64, f64) {
    (x * y, x + y)
}

fn main() {}
