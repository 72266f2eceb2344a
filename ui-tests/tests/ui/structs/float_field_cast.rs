use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
struct Params {
    a: f64,
}

#[differentiable]
fn f(p: &Params, x: f64) -> f64 {
    (p.a as f64) * x
}

fn main() {}
