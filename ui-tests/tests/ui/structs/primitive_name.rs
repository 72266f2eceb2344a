use autograd::differentiable;

#[derive(Clone, autograd::Tangent)]
struct Params {
    a: f64,
}

#[differentiable]
fn f64(p: &Params, x: f64) -> f64 {
    p.a * x
}

fn main() {}
