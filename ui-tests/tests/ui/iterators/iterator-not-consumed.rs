use autograd::differentiable;

#[differentiable]
fn first_square(x: &[f64]) -> f64 {
    let squares = x.iter().map(|v| v * v);
    x[0]
}

fn main() {}
