use autograd::differentiable;

#[differentiable]
fn wrapped(x: f64) -> f64 {
    x.div_euclid(1.0) * x
}

fn main() {
    // The generated items still exist: no cascade of errors here.
    let _ = wrapped_grad(1.5);
}
