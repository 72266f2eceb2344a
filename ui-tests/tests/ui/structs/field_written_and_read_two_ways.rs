// A `DVector` field of a struct taken by value is written by element and
// then read as a nalgebra value: the two reads would be two copies of the
// field, the second without the write. One error, at the write.
use autograd::differentiable;
use nalgebra::DVector;

#[derive(Clone, autograd::Tangent)]
pub struct Params {
    pub w: DVector<f64>,
}

#[differentiable]
fn shrunk(mut p: Params, x: f64) -> f64 {
    p.w[0] = x * p.w[0];
    p.w.norm()
}

fn main() {}
