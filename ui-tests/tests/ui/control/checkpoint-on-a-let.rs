use autograd::differentiable;

#[differentiable]
fn scaled(x: f64) -> f64 {
    #[checkpoint]
    let y = x * 2.0;
    y
}

fn main() {}
