use autograd::differentiable;
use nalgebra::DMatrix;

#[differentiable]
fn weighted_sines(m: &DMatrix<f64>, w: &[f64]) -> f64 {
    m.map(|v| v.sin() * w[0]).sum()
}

fn main() {}
