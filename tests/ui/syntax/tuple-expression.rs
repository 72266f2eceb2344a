use autograd::differentiable;

#[differentiable]
fn first(x: f64, y: f64) -> f64 {
    let _pair = (x, y);
    x + y
}

fn main() {}
