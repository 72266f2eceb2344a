// A nalgebra value built from `f32`s: matrices hold `f64`s, one error at
// the constructor.
use autograd::differentiable;

#[differentiable]
fn length_squared(x: f32, y: f32) -> f32 {
    let v = nalgebra::Vector2::new(x, y);
    v.norm_squared()
}

fn main() {}
