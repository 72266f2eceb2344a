use autograd::differentiable;

#[differentiable(jvp)]
fn energy(x: f64, y: f64) -> f64 {
    x * x * y
}

fn main() {
    let _ = energy_hvp(1.0, 2.0, 1.0, 0.0);
}
