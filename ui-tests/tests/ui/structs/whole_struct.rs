use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
struct Params {
    a: f64,
}

fn g(p: &Params) -> f64 {
    p.a
}

#[differentiable]
fn f(p: &Params, x: f64) -> f64 {
    g(p) * x
}

fn main() {}
