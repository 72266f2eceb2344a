// A component of a nalgebra vector is read by name (`pos.y`), not written.
use autograd::differentiable;

#[differentiable]
fn bounce(h: f64) -> f64 {
    let mut pos = nalgebra::Vector2::new(0.0, h);
    pos.y = -pos.y;
    pos.y
}

fn main() {}
