use autograd::differentiable;

#[differentiable]
fn truncated(x: f64) -> f64 {
    let n = x as i64;
    x * n as f64
}

fn main() {}
