use autograd::differentiable;

#[differentiable]
fn moments(x: f64) -> (f64, f64) {
    (x * x, x.sin())
}

// A callee returning a tuple needs `hessian` as one returning a number
// does: one error at the call, naming the callee and the option.
#[differentiable(hessian)]
fn product_of_moments(x: f64) -> f64 {
    let (a, b) = moments(x);
    a * b
}

fn main() {
    let _ = product_of_moments_grad(0.5);
}
