use autograd::differentiable;

#[differentiable]
fn widen(x: f64) -> f64 {
    let y = x as f64;
    y * y
}

fn main() {}
