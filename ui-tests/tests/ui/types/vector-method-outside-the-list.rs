use autograd::differentiable;
use nalgebra::DVector;

// `normalize` is a nalgebra method the macro does not differentiate: one
// error at the method, naming the supported ones.
#[differentiable]
fn unit_sum(v: &DVector<f64>) -> f64 {
    v.normalize().sum()
}

fn main() {}
