use autograd::differentiable;

#[differentiable]
fn fused(x: f64, y: f64) -> f64 {
    x.mul_add(y, 1.0)
}

fn main() {}
