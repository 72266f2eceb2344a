use autograd::differentiable;

#[differentiable]
fn scaled(x: f64, #[constnt] k: f64) -> f64 {
    x * k
}

fn main() {}
