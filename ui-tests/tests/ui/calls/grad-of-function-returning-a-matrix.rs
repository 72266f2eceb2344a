use autograd::differentiable;
use autograd::nalgebra::DMatrix;

#[differentiable]
fn scaled(a: &DMatrix<f64>, s: f64) -> DMatrix<f64> {
    a * s
}

fn main() {
    // A matrix result has a pullback only: one error saying so.
    let a = DMatrix::from_element(2, 2, 1.0);
    let (value, da, ds) = scaled_grad(&a, 2.0);
    println!("{value} {da} {ds}");
}
