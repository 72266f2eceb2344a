use autograd::differentiable;
use nalgebra::DMatrix;

#[differentiable]
fn grown(a: &DMatrix<f64>) -> f64 {
    let mut p = a.clone();
    let m = loop {
        p = p.component_mul(a);
        if p.sum() > 10.0 {
            break p;
        }
    };
    m.sum()
}

fn main() {}
