use autograd::differentiable;

#[differentiable]
fn energy(x: f64, y: f64) -> f64 {
    x * x * y
}

fn main() {
    // One result has a gradient, not a Jacobian: one error saying so.
    let (value, jacobian) = energy_jacobian(1.0, 2.0);
    println!("{value} {jacobian}");
}
