use autograd::differentiable;

#[differentiable]
fn product_off_origin(x: f64, y: f64) -> f64 {
    let pair = (x, y);
    if pair == (0.0, 0.0) { 1.0 } else { pair.0 * pair.1 }
}

fn main() {}
