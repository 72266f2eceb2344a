use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
struct Damped {
    gain: f32,
}

#[differentiable]
fn damped(d: &Damped, t: f32) -> f32 {
    d.gain * t
}

#[differentiable]
fn twice(d: &Damped, t: f32) -> f32 {
    damped(d, t) * 2.0
}

fn main() {}
