use autograd::differentiable;
use nalgebra::DMatrix;

#[differentiable]
fn total(m: &DMatrix<f64>) -> f64 {
    let mut s = 0.0;
    for v in m.iter() {
        s += *v;
    }
    s
}

fn main() {}
