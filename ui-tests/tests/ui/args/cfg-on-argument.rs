use autograd::differentiable;

#[differentiable]
fn scaled(x: f64, #[cfg(test)] k: f64) -> f64 {
    x * 2.0
}

fn main() {}
