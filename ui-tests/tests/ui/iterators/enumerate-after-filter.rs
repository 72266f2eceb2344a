use autograd::differentiable;

#[differentiable]
fn weighted_positives(x: &[f64]) -> f64 {
    x.iter()
        .filter(|v| **v > 0.0)
        .enumerate()
        .map(|(i, v)| i as f64 * v)
        .sum::<f64>()
}

fn main() {}
