use autograd::differentiable;
use autograd::solve::{SolveError, bisect};

/// f(x, c) = x² − c; its root is √c.
#[differentiable]
fn residual(x: f64, c: f64) -> f64 {
    x * x - c
}

#[differentiable(implicit = residual)]
fn sqrt_by_bisection(c: f64) -> Result<f64, SolveError> {
    bisect(|x| residual(x, c), 0.0, c.max(1.0), 1e-14)
}

fn sqrt_via_bisection_backward(grad_output: f64, _c: f64, output: f64) -> (f64,) {
    (grad_output / (2.0 * output),)
}

#[differentiable(backward = sqrt_via_bisection_backward)]
fn sqrt_custom(c: f64) -> f64 {
    c.sqrt()
}

#[differentiable]
fn uses_both(c: f64) -> f64 {
    let s = sqrt_custom(c);
    s * s
}

#[test]
fn implicit_sqrt() {
    let (x, dx) = sqrt_by_bisection_grad(2.0).unwrap();
    assert!((x - 2f64.sqrt()).abs() < 1e-12);
    assert!((dx - 0.353_553_390_593_273_8).abs() < 1e-10, "{dx}");
    let (v, d) = uses_both_grad(3.0);
    assert!((v - 3.0).abs() < 1e-12 && (d - 1.0).abs() < 1e-12);
    assert!(sqrt_by_bisection_grad(-1.0).is_err());
}

/// r(x, c) = (x − c)³: ∂r/∂x = 0 at the root x = c.
#[differentiable]
fn triple(x: f64, c: f64) -> f64 {
    let d = x - c;
    d * d * d
}

#[differentiable(implicit = triple)]
fn plain_singular(c: f64) -> f64 {
    bisect(|x| triple(x, c), c - 1.0, c + 1.0, 1e-12).unwrap_or(f64::NAN)
}

#[test]
fn a_singular_derivative_without_a_result_is_nan_never_infinite() {
    let (x, dx) = plain_singular_grad(0.5);
    assert!((x - 0.5).abs() < 1e-4);
    assert!(dx.is_nan(), "{dx}");
}
