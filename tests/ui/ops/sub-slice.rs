use autograd::differentiable;

#[differentiable]
fn head(x: &[f64]) -> f64 {
    let h = x[0..2];
    x[0]
}

fn main() {}
