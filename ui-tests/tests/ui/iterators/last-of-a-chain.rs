use autograd::differentiable;

#[differentiable]
fn last_square(x: &[f64]) -> f64 {
    x.iter().map(|a| a * a).last().unwrap()
}

fn main() {}
