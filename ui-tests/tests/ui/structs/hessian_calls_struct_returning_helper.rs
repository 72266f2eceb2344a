use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
pub struct Pair {
    pub u: f64,
    pub v: f64,
}

#[differentiable]
pub fn make(a: f64) -> Pair {
    Pair { u: a.sin(), v: a * a }
}

#[differentiable(hessian)]
pub fn use_pair(a: f64, x: f64) -> f64 {
    let p = make(a);
    p.u * x + p.v
}

fn main() {}
