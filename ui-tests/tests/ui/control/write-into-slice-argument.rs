use autograd::differentiable;

#[differentiable]
fn reset_first(x: &[f64]) -> f64 {
    x[0] = 1.0;
    x[0] + x[1]
}

fn main() {}
