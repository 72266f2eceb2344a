use autograd::differentiable;

#[differentiable]
fn largest(x: &[f64]) -> f64 {
    x.iter().copied().map(|v| v * v).fold(f64::MIN, f64::max) + x.iter().copied().reduce(f64::max).unwrap()
}

fn main() {}
