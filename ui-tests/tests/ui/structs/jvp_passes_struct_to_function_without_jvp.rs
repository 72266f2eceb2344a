use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
pub struct Inner {
    a: f64,
}

#[derive(Clone, Tangent)]
pub struct Params {
    inner: Inner,
    w: f64,
}

#[differentiable]
fn energy(q: &Inner, x: f64) -> f64 {
    q.a * x
}

#[differentiable(jvp)]
fn outer(p: &Params, x: f64) -> f64 {
    energy(&p.inner, x).sin() * p.w
}

fn main() {}
