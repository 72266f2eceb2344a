use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
struct Params {
    a: f32,
}

#[differentiable(hessian)]
fn f(p: &Params, x: f32) -> f32 {
    (p.a * x).sin()
}

fn main() {}
