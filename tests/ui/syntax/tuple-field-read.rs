use autograd::differentiable;

#[differentiable]
fn first(x: f64, y: f64) -> f64 {
    let pair = (x, y);
    pair.0 * 2.0
}

fn main() {}
