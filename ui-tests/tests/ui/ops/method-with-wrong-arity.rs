use autograd::differentiable;

#[differentiable]
fn power(x: f64, y: f64) -> f64 {
    x.powf(y, 1.0)
}

fn main() {}
