//! √c by bisection through `#[differentiable(implicit = residual)]`, and
//! the seed's hand-written `sqrt_via_bisection_backward` as a custom rule
//! (`#[differentiable(backward = rule)]`).
//!
//! Expected values: the closed form d√c/dc = 1/(2√c), central finite
//! differences of the whole solver (re-solving at c ± h), and the seed's
//! printed numbers (√2 ≈ 1.4142136, dx/dc ≈ 0.3535534). Tolerances are
//! stated next to each assertion.

use approx::{assert_abs_diff_eq, assert_relative_eq};
use autograd::differentiable;
use autograd::solve::{SolveError, bisect, brent};

/// Points where √c is checked: below, at and above 1 (the bracket's upper
/// end is `c.max(1.0)`), and the seed's c = 2.
const POINTS: [f64; 7] = [0.01, 0.25, 1.0, 2.0, 3.0, 10.0, 1e4];

/// r(x, c) = x² − c; its root in x ≥ 0 is √c.
#[differentiable]
fn residual(x: f64, c: f64) -> f64 {
    x * x - c
}

#[differentiable(implicit = residual)]
fn sqrt_by_bisection(c: f64) -> Result<f64, SolveError> {
    bisect(|x| residual(x, c), 0.0, c.max(1.0), 1e-14)
}

#[differentiable(implicit = residual)]
fn sqrt_by_brent(c: f64) -> Result<f64, SolveError> {
    brent(|x| residual(x, c), 0.0, c.max(1.0), 1e-14)
}

/// The same solver as a plain `f64` function (NaN when there is no root).
#[differentiable(implicit = residual)]
fn sqrt_plain(c: f64) -> f64 {
    bisect(|x| residual(x, c), 0.0, c.max(1.0), 1e-15).unwrap_or(f64::NAN)
}

/// The solver alone, for finite differences that re-solve.
fn solve(c: f64) -> f64 {
    bisect(|x| x * x - c, 0.0, c.max(1.0), 1e-15).unwrap()
}

/// Central difference of the whole solver, with a step relative to c.
fn fd_solver(c: f64) -> f64 {
    let h = 1e-5 * c.max(1e-2);
    (solve(c + h) - solve(c - h)) / (2.0 * h)
}

#[test]
#[allow(clippy::approx_constant)] // 1.4142136 and 0.3535534 are the seed's printed values
fn the_seed_numbers_at_c_2() {
    let (x, dx_dc) = sqrt_by_bisection_grad(2.0).unwrap();
    assert_abs_diff_eq!(x, 1.414_213_6, epsilon = 1e-7);
    assert_abs_diff_eq!(dx_dc, 0.353_553_4, epsilon = 1e-7);
    // The seed's one-sided nudge to c = 2.001 agrees to four digits.
    let nudged = sqrt_by_bisection(2.001).unwrap();
    assert_abs_diff_eq!(nudged, 1.414_567_1, epsilon = 1e-7);
    assert_abs_diff_eq!((nudged - x) / 0.001, dx_dc, epsilon = 1e-4);
}

#[test]
fn value_and_gradient_against_the_closed_form() {
    for c in POINTS {
        let (x, dx_dc) = sqrt_by_bisection_grad(c).unwrap();
        // Bisection to 1e-14: the value within 5e-15 of √c, plus rounding.
        assert_abs_diff_eq!(x, c.sqrt(), epsilon = 1e-14 + 4.0 * f64::EPSILON * c.sqrt());
        // The value is bit for bit what the function itself returns.
        assert_eq!(x.to_bits(), sqrt_by_bisection(c).unwrap().to_bits());
        // 1/(2x) at an x within 1e-14 of √c: relative error ~1e-14/√c.
        assert_relative_eq!(
            dx_dc,
            1.0 / (2.0 * c.sqrt()),
            epsilon = 0.0,
            max_relative = 1e-12
        );
    }
}

#[test]
fn gradient_against_finite_differences_of_the_solver() {
    for c in POINTS {
        let (_, dx_dc) = sqrt_by_bisection_grad(c).unwrap();
        // Step 1e-5·c: truncation ~1e-10 relative; solver noise
        // 1e-15/(2e-5·c) against a slope of 1/(2√c): below 1e-8 relative.
        assert_relative_eq!(dx_dc, fd_solver(c), epsilon = 0.0, max_relative = 1e-7);
    }
}

#[test]
fn brent_gives_the_same_root_and_gradient() {
    for c in POINTS {
        let (x, dx_dc) = sqrt_by_brent_grad(c).unwrap();
        let (y, dy_dc) = sqrt_by_bisection_grad(c).unwrap();
        // Both within tol + 4ε|x| of √c.
        assert_abs_diff_eq!(x, y, epsilon = 2e-14 + 8.0 * f64::EPSILON * c.sqrt());
        assert_relative_eq!(dx_dc, dy_dc, epsilon = 0.0, max_relative = 1e-12);
    }
}

#[test]
fn the_pullback_scales_with_the_seed() {
    let (x, pullback) = sqrt_by_bisection_vjp(9.0).unwrap();
    assert_abs_diff_eq!(x, 3.0, epsilon = 1e-14);
    let (dc,) = pullback(-6.0);
    // −6 · 1/(2·3) = −1.
    assert_abs_diff_eq!(dc, -1.0, epsilon = 1e-13);
}

#[test]
fn a_plain_f64_solver_has_grad_and_check() {
    let (x, dx_dc) = sqrt_plain_grad(2.0);
    assert_abs_diff_eq!(x, 2f64.sqrt(), epsilon = 1e-14);
    assert_relative_eq!(
        dx_dc,
        0.5 / 2f64.sqrt(),
        epsilon = 0.0,
        max_relative = 1e-13
    );
    // The generated check re-solves at c ± h: smooth, so 1e-6 relative.
    for c in POINTS {
        let check = sqrt_plain_check(c);
        assert!(check.is_within(1e-8, 1e-6), "c = {c}: {check:?}");
    }
}

#[test]
fn no_root_is_an_error_and_not_a_panic() {
    // c < 0: x² − c > 0 on the whole bracket [0, 1].
    let err = sqrt_by_bisection_grad(-1.0).unwrap_err();
    assert_eq!(
        err,
        SolveError::NoSignChange {
            lo: 0.0,
            hi: 1.0,
            f_lo: 1.0,
            f_hi: 2.0
        }
    );
    assert!(sqrt_by_bisection_vjp(-1.0).is_err());
    assert!(sqrt_by_brent_grad(-1.0).is_err());
    assert!(sqrt_plain(-1.0).is_nan());
}

// ---------------------------------------------------------------------------
// The seed's custom rule: output holds the converged x, dx/dc = 1/(2x).

/// `sqrt_via_bisection_backward` of section 16.7, for `f64`: the rule gets
/// the output's adjoint, the argument and the output, and returns the
/// argument's adjoint.
fn sqrt_via_bisection_backward(grad_output: f64, _c: f64, output: f64) -> (f64,) {
    let local_grad = 1.0 / (2.0 * output);
    (grad_output * local_grad,)
}

/// √c by bisection on [0, max(c, 1)]; the body is never differentiated.
#[differentiable(backward = sqrt_via_bisection_backward)]
fn sqrt_via_bisection(c: f64) -> f64 {
    bisect(|x| x * x - c, 0.0, c.max(1.0), 1e-15).unwrap_or(f64::NAN)
}

#[test]
#[allow(clippy::approx_constant)] // the seed's printed values
fn custom_rule_gives_the_seed_gradient() {
    let (x, dx_dc) = sqrt_via_bisection_grad(2.0);
    assert_abs_diff_eq!(x, 1.414_213_6, epsilon = 1e-7);
    assert_abs_diff_eq!(dx_dc, 0.353_553_4, epsilon = 1e-7);
    for c in POINTS {
        let (x, dx_dc) = sqrt_via_bisection_grad(c);
        assert_eq!(x.to_bits(), sqrt_via_bisection(c).to_bits());
        assert_relative_eq!(
            dx_dc,
            1.0 / (2.0 * c.sqrt()),
            epsilon = 0.0,
            max_relative = 1e-12
        );
        assert_relative_eq!(dx_dc, fd_solver(c), epsilon = 0.0, max_relative = 1e-7);
        assert!(sqrt_via_bisection_check(c).is_within(1e-8, 1e-6));
    }
    // The rule multiplies the seed through.
    let (_, pullback) = sqrt_via_bisection_vjp(4.0);
    assert_abs_diff_eq!(pullback(8.0).0, 2.0, epsilon = 1e-13);
}

#[test]
fn custom_rule_and_implicit_hook_agree() {
    for c in POINTS {
        let (_, a) = sqrt_via_bisection_grad(c);
        let (_, b) = sqrt_by_bisection_grad(c).unwrap();
        assert_relative_eq!(a, b, epsilon = 0.0, max_relative = 1e-12);
    }
}
