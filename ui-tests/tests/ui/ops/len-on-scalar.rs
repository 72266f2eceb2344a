use autograd::differentiable;

#[differentiable]
fn scaled(x: f64) -> f64 {
    x * x.len() as f64
}

fn main() {}
