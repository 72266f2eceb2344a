use autograd::differentiable;

#[differentiable(jvp, hessian)]
fn f(x: f64) -> f64 {
    x * x
}

fn main() {
    let _ = f_jvp(1.0, 1.0);
}
