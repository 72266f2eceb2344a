use autograd::differentiable;

#[differentiable]
fn energy(x: f64, y: &[f64]) -> f64 {
    x * x * y[0]
}

fn main() {
    // The function has no `hessian` option: one error, naming it.
    let (value, gradient, hessian) = energy_hessian(1.0, &[2.0]);
    println!("{value} {gradient} {hessian}");
}
