use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
pub struct Pair {
    pub u: f64,
    pub v: f64,
}

#[differentiable]
pub fn scaled(p: &Pair, s: f64) -> Pair {
    Pair { u: p.u * s, v: p.v * s }
}

fn main() {}
