use autograd::differentiable;
use nalgebra::DMatrix;

#[differentiable]
fn scaled_sines(m: &DMatrix<f64>, x: f64) -> f64 {
    let k = x * 2.0;
    m.map(|v| v.sin() * k).sum()
}

fn main() {}
