use autograd::differentiable;

#[differentiable]
fn moments(x: f64) -> (f64, f64) {
    (x * x, x.sin())
}

// `hessian` takes callees returning one number: one error at the call,
// none naming the runtime's helpers.
#[differentiable(hessian)]
fn product_of_moments(x: f64) -> f64 {
    let (a, b) = moments(x);
    a * b
}

fn main() {
    let _ = product_of_moments_grad(0.5);
}
