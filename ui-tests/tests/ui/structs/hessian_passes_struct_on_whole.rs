use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
struct Params {
    a: f64,
}

#[differentiable(hessian)]
fn inner(p: &Params, x: f64) -> f64 {
    p.a * x
}

#[differentiable(hessian)]
fn outer(p: &Params, x: f64) -> f64 {
    inner(p, x).sin()
}

fn main() {}
