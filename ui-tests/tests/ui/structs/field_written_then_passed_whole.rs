// A field of a struct taken by value is written, then the struct is passed
// on whole: the callee would see the struct as it came in. One error, at
// the write.
use autograd::differentiable;

#[derive(Clone, autograd::Tangent)]
pub struct Params {
    pub a: f64,
    pub b: f64,
}

#[differentiable]
fn energy(p: &Params, x: f64) -> f64 {
    p.a * x + p.b
}

#[differentiable]
fn shifted(mut p: Params, x: f64) -> f64 {
    p.a = 2.0 * x;
    energy(&p, x)
}

fn main() {}
