use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
struct Params {
    a: f64,
    n: usize,
}

#[differentiable]
fn f(p: &Params, x: f64) -> f64 {
    if p.n > 2 { p.a * x } else { x }
}

fn main() {}
