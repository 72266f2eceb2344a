//! What goes wrong in a solver comes back as an error through the
//! `Result`, never as a panic or a silent infinity: a bracket with no sign
//! change, a NaN input, a tolerance of 0, and a residual whose derivative
//! in the solution vanishes at the root (the implicit function theorem
//! does not apply there).

use autograd::differentiable;
use autograd::solve::{SolveError, bisect, brent};

/// A caller's own error type: the hook converts `SolveError` into it.
#[derive(Debug, PartialEq)]
enum PricingError {
    Solve(SolveError),
}

impl From<SolveError> for PricingError {
    fn from(e: SolveError) -> Self {
        PricingError::Solve(e)
    }
}

// ---------------------------------------------------------------------------
// A residual with a triple root: r(x, c) = (x − c)³, ∂r/∂x = 3(x − c)² = 0
// at the root x = c.

#[differentiable]
fn triple(x: f64, c: f64) -> f64 {
    let d = x - c;
    d * d * d
}

/// The bracket [c − 1, c + 1] has its midpoint at c: bisection lands on
/// the root exactly, where ∂r/∂x is exactly 0.
#[differentiable(implicit = triple)]
fn triple_root(c: f64) -> Result<f64, PricingError> {
    Ok(bisect(|x| triple(x, c), c - 1.0, c + 1.0, 1e-12)?)
}

#[test]
fn a_zero_derivative_at_the_root_is_singular_derivative() {
    for c in [0.5, 2.0, -3.0] {
        // The primal is fine: the root is c.
        assert_eq!(triple_root(c), Ok(c));
        // The derivative is not: 0/0 by the implicit function theorem.
        let err = triple_root_grad(c).unwrap_err();
        assert_eq!(
            err,
            PricingError::Solve(SolveError::SingularDerivative { derivative: 0.0 })
        );
        assert!(triple_root_vjp(c).is_err());
        let PricingError::Solve(e) = err;
        assert!(e.to_string().contains("not differentiable"), "{e}");
    }
}

/// r(x, c) = x³ − c: the real cube root, whose slope is infinite at c = 0.
#[differentiable]
fn cube(x: f64, c: f64) -> f64 {
    x * x * x - c
}

#[differentiable(implicit = cube)]
fn cube_root(c: f64) -> Result<f64, SolveError> {
    bisect(|x| cube(x, c), -2.0, 2.0, 1e-13)
}

#[test]
fn an_infinite_slope_is_singular_derivative_not_infinity() {
    // c = 0: the first midpoint of [−2, 2] is the root 0, ∂r/∂x = 0 there.
    assert_eq!(cube_root(0.0), Ok(0.0));
    assert_eq!(
        cube_root_grad(0.0),
        Err(SolveError::SingularDerivative { derivative: 0.0 })
    );
    // Away from 0 the derivative is 1/(3x²).
    let (x, dx) = cube_root_grad(1.0).unwrap();
    assert!((x - 1.0).abs() <= 1e-13, "{x}");
    assert!((dx - 1.0 / (3.0 * x * x)).abs() <= 1e-12, "{dx}");
}

// ---------------------------------------------------------------------------
// Bad brackets, NaN, tolerance.

/// The root of a·x − b in [lo, hi], lo and hi constants of the call.
#[differentiable(implicit = linear_bracketed)]
fn ratio(a: f64, b: f64, #[constant] lo: f64, #[constant] hi: f64) -> Result<f64, SolveError> {
    bisect(|x| linear_bracketed(x, a, b, lo, hi), lo, hi, 1e-12)
}

/// r(x, a, b) = a·x − b; the residual's arguments after x are the
/// solver's own, bracket included (unused here).
#[differentiable]
fn linear_bracketed(x: f64, a: f64, b: f64, #[constant] _lo: f64, #[constant] _hi: f64) -> f64 {
    a * x - b
}

#[test]
fn a_bracket_without_a_sign_change_is_an_error() {
    // b/a = 3 is outside [0, 1].
    match ratio_grad(1.0, 3.0, 0.0, 1.0) {
        Err(SolveError::NoSignChange { lo, hi, f_lo, f_hi }) => {
            assert_eq!((lo, hi, f_lo, f_hi), (0.0, 1.0, -3.0, -2.0));
        }
        other => panic!("{other:?}"),
    }
    // A reversed or empty bracket.
    assert_eq!(
        ratio_grad(1.0, 0.5, 1.0, 0.0),
        Err(SolveError::EmptyBracket { lo: 1.0, hi: 0.0 })
    );
    // Inside the bracket: x = b/a, dx/da = −b/a², dx/db = 1/a.
    let (x, da, db) = ratio_grad(2.0, 1.0, 0.0, 1.0).unwrap();
    assert!((x - 0.5).abs() <= 1e-12);
    assert!((da + 0.25).abs() <= 1e-11 && (db - 0.5).abs() <= 1e-11);
}

#[test]
fn nan_inputs_are_errors() {
    // A NaN parameter makes the residual NaN at the first end evaluated.
    assert_eq!(
        ratio_grad(1.0, f64::NAN, 0.0, 1.0),
        Err(SolveError::NotANumber { x: 0.0 })
    );
    assert!(ratio_grad(f64::NAN, 0.5, 0.0, 1.0).is_err());
    // A NaN or infinite bracket end.
    match ratio_grad(1.0, 0.5, f64::NAN, 1.0) {
        Err(SolveError::NonFinite { argument, .. }) => assert_eq!(argument, "lo"),
        other => panic!("{other:?}"),
    }
    match ratio_grad(1.0, 0.5, 0.0, f64::INFINITY) {
        Err(SolveError::NonFinite { argument, .. }) => assert_eq!(argument, "hi"),
        other => panic!("{other:?}"),
    }
}

#[differentiable]
fn with_tol(x: f64, c: f64, #[constant] _tol: f64) -> f64 {
    x * x - c
}

#[differentiable(implicit = with_tol)]
fn sqrt_tol(c: f64, #[constant] tol: f64) -> Result<f64, SolveError> {
    bisect(|x| with_tol(x, c, tol), 0.0, c.max(1.0), tol)
}

#[differentiable(implicit = with_tol)]
fn sqrt_tol_brent(c: f64, #[constant] tol: f64) -> Result<f64, SolveError> {
    brent(|x| with_tol(x, c, tol), 0.0, c.max(1.0), tol)
}

#[test]
fn a_tolerance_of_zero_or_below_is_an_error() {
    for tol in [0.0, -1e-12] {
        assert_eq!(
            sqrt_tol_grad(2.0, tol),
            Err(SolveError::NonPositiveTolerance { tol })
        );
        assert_eq!(
            sqrt_tol_brent_grad(2.0, tol),
            Err(SolveError::NonPositiveTolerance { tol })
        );
    }
    match sqrt_tol_grad(2.0, f64::NAN) {
        Err(SolveError::NonFinite { argument, .. }) => assert_eq!(argument, "tol"),
        other => panic!("{other:?}"),
    }
    // A positive tolerance works, and the gradient does not depend on it.
    let (x, dx) = sqrt_tol_grad(2.0, 1e-14).unwrap();
    assert!((x - 2f64.sqrt()).abs() <= 1e-14);
    assert!((dx - 0.5 / x).abs() <= 1e-15);
}
