use autograd::differentiable;

#[differentiable]
fn square(x: f64) -> f64 {
    let y: f64;
    y = x * x;
    y
}

fn main() {}
