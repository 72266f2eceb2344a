use autograd::differentiable;

#[differentiable]
fn inner(x: f64) -> f64 {
    x.sin()
}

#[differentiable(jvp)]
fn outer(x: f64) -> f64 {
    inner(x) * x
}

fn main() {
    let _ = outer_jvp(1.0, 1.0);
}
