use autograd::differentiable;

#[differentiable(hessian)]
fn energy(x: f64, #[constant] k: f64) -> f64 {
    k * x * x
}

fn main() {
    let (value, tangent) = energy_jvp(1.0, 2.0, 1.0);
    println!("{value} {tangent}");
}
