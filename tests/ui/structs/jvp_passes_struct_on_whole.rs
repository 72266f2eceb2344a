use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
struct Params {
    a: f64,
}

#[differentiable(jvp)]
fn inner(p: &Params, x: f64) -> f64 {
    p.a * x
}

#[differentiable(jvp)]
fn outer(p: &Params, x: f64) -> f64 {
    inner(p, x).sin()
}

fn main() {}
