use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
struct Params {
    a: f64,
}

#[differentiable]
fn residual(z: f64, p: &Params) -> f64 {
    z - p.a
}

#[differentiable(implicit = residual)]
fn f(p: &Params) -> f64 {
    p.a
}

fn main() {}
