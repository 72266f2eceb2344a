use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
struct Params {
    a: f64,
}

#[differentiable(jvp)]
fn f(p: &Params, x: f64) -> f64 {
    p.a * x
}

fn main() {}
