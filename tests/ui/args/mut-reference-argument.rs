use autograd::differentiable;

#[differentiable]
fn scale(x: &mut f64, k: f64) -> f64 {
    *x * k
}

fn main() {}
