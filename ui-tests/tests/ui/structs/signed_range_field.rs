use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
struct Params {
    a: f64,
    n: i32,
}

#[differentiable]
fn f(p: &Params, x: f64) -> f64 {
    let mut s = 0.0;
    for _ in 0..p.n {
        s += p.a * x;
    }
    s
}

fn main() {}
