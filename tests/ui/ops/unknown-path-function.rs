use autograd::differentiable;

#[differentiable]
fn degrees(x: f64) -> f64 {
    f64::to_degrees(x)
}

fn main() {}
