use autograd::differentiable;

// Not autograd's, not `#[differentiable]`: a call of a non-differentiable
// function, not a place where the gradient stops.
fn stop_gradient(v: f64) -> f64 {
    2.0 * v
}

#[differentiable]
fn f(x: f64) -> f64 {
    stop_gradient(x) + x
}

fn main() {
    let _ = f(1.0);
}
