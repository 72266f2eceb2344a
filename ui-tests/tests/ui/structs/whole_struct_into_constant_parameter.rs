use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
struct Params {
    a: f64,
}

#[differentiable]
fn g(#[constant] p: &Params, x: f64) -> f64 {
    p.a * x
}

// `p` is differentiable here and `g` takes it as a constant: its
// gradient through `g` would be dropped, so this must not compile.
#[differentiable]
fn f(p: &Params, x: f64) -> f64 {
    g(p, x) * x
}

fn main() {}
