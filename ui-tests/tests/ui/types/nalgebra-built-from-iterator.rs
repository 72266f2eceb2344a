// A nalgebra value built from differentiable values other than by its
// elements: one error naming the forms that are supported.
use autograd::differentiable;

#[differentiable]
fn doubled_norm(x: &[f64]) -> f64 {
    let v = nalgebra::DVector::from_iterator(x.len(), x.iter().map(|t| t * 2.0));
    v.norm_squared()
}

fn main() {}
