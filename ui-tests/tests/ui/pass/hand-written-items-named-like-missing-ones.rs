//! Items written by hand under the names an option not given would
//! generate (`NAME_jvp`, `NAME_hessian`) are the user's: the macro's
//! stand-ins for them give way.
use autograd::differentiable;

#[differentiable]
fn square(x: f64) -> f64 {
    x * x
}

/// The forward mode by hand: d(x²) = 2x·dx.
fn square_jvp(x: f64, dx: f64) -> (f64, f64) {
    (x * x, 2.0 * x * dx)
}

fn square_hessian(_x: f64) -> f64 {
    2.0
}

fn main() {
    assert_eq!(square_jvp(3.0, 1.0), (9.0, 6.0));
    assert_eq!(square_hessian(3.0), 2.0);
    assert_eq!(square_grad(3.0), (9.0, 6.0));
}
