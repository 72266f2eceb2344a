use autograd::differentiable;

#[differentiable]
fn scaled(x: f64, y: f32) -> f64 {
    x * y
}

fn main() {}
