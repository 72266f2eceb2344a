use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
pub struct Curve {
    pub w: Vec<f64>,
    pub b: f64,
}

#[differentiable]
pub fn make(a: f64) -> Curve {
    Curve { w: vec![a, 2.0 * a], b: a * a }
}

fn main() {}
