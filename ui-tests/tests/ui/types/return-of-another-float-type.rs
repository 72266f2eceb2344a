use autograd::differentiable;

#[differentiable]
fn square(x: f64) -> f32 {
    x * x
}

fn main() {}
