use autograd::differentiable;

#[differentiable]
fn even_sum(x: &[f64]) -> f64 {
    x.iter().step_by(2).map(|v| v * v).sum::<f64>()
}

fn main() {}
