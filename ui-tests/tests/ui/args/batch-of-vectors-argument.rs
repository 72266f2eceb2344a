use autograd::differentiable;
use nalgebra::DVector;

#[differentiable]
fn loss(xs: &[DVector<f64>], w: &DVector<f64>) -> f64 {
    xs.iter().map(|x| (w.dot(x) - 1.0).powi(2)).sum()
}

fn main() {}
