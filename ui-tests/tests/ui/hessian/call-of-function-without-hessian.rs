use autograd::differentiable;

#[differentiable]
fn inner(x: f64) -> f64 {
    x.sin()
}

#[differentiable(hessian)]
fn outer(x: f64) -> f64 {
    inner(x) * x
}

fn main() {
    let _ = outer_hessian(1.0);
}
