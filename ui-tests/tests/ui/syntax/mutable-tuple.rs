use autograd::differentiable;

#[differentiable]
fn swap_sum(x: f64, y: f64) -> f64 {
    let mut t = (x, y);
    t.0 * t.1
}

fn main() {}
