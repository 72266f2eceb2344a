use autograd::differentiable;

#[differentiable]
fn residuals(x: &[f64]) -> Vec<f64> {
    vec![x[0] - 1.0, x[0] * x[1]]
}

fn main() {
    // Several results have a Jacobian, not a gradient: one error saying so.
    let (value, gradient) = residuals_grad(&[1.0, 2.0]);
    println!("{value:?} {gradient:?}");
}
