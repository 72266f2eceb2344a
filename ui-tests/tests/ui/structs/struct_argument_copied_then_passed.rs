// A `Tangent` struct argument copied into a local, which is then passed on
// whole: the local is used by its fields, one error at the use.
use autograd::differentiable;

#[derive(Clone, Copy, autograd::Tangent)]
pub struct Start {
    pub x: f64,
    pub v: f64,
}

#[differentiable]
fn energy(s: &Start) -> f64 {
    s.x * s.x + s.v * s.v
}

#[differentiable]
fn stepped(start: Start, dt: f64) -> f64 {
    let mut s = start;
    s.x += s.v * dt;
    energy(&s)
}

fn main() {}
