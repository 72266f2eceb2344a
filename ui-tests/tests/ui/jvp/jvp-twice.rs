use autograd::differentiable;

#[differentiable(jvp, jvp)]
fn f(x: f64) -> f64 {
    x * x
}

fn main() {
    let _ = f(1.0);
}
