use autograd::{Tangent, differentiable};
use nalgebra::DVector;

#[derive(Clone, Tangent)]
struct Params {
    w: Vec<f64>,
}

#[differentiable]
fn f(p: &Params, x: &DVector<f64>) -> f64 {
    p.w.norm_squared() * x[0]
}

fn main() {}
