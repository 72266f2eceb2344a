use autograd::{differentiable, stop_gradient};

/// x · stop_gradient(x): the second factor is a constant to the gradient.
#[differentiable]
fn half_square(x: f64) -> f64 {
    x * autograd::stop_gradient(x)
}

/// Imported by name; the stopped value flows, its gradient does not.
#[differentiable]
fn use_stop(x: f64, y: f64) -> f64 {
    let frozen = stop_gradient(x * y);
    frozen + x
}

/// Through a call.
#[differentiable]
fn detached_sum(x: f64, y: f64) -> f64 {
    use_stop(x, y) * 2.0
}

fn main() {
    assert_eq!(half_square_grad(3.0), (9.0, 3.0));
    assert_eq!(use_stop_grad(3.0, 4.0), (15.0, 1.0, 0.0));
    assert_eq!(detached_sum_grad(3.0, 4.0), (30.0, 2.0, 0.0));
}
