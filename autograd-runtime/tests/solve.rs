//! Bisection: the seed's √2 and its implicit derivative, and every error.

use approx::{assert_abs_diff_eq, assert_relative_eq};
use autograd_runtime::solve::{SolveError, bisect};

fn sqrt_by_bisection(c: f64) -> f64 {
    bisect(|x| x * x - c, 0.0, c.max(1.0), 1e-14).unwrap()
}

#[test]
#[allow(clippy::approx_constant)] // 1.4142136 is the seed's printed value
fn sqrt_2_by_bisection() {
    let x = sqrt_by_bisection(2.0);
    assert_abs_diff_eq!(x, 1.414_213_6, epsilon = 1e-7);
    assert_abs_diff_eq!(x, 2f64.sqrt(), epsilon = 1e-14);
    // The seed's bracket [1, 2] converges to the same root.
    let y = bisect(|x| x * x - 2.0, 1.0, 2.0, 1e-14).unwrap();
    assert_abs_diff_eq!(y, 2f64.sqrt(), epsilon = 1e-14);
}

#[test]
fn implicit_derivative_matches_a_finite_difference_of_the_solver() {
    // dx/dc = -(∂f/∂c)/(∂f/∂x) = 1/(2x) for f(x, c) = x² - c.
    let x = sqrt_by_bisection(2.0);
    let implicit = 1.0 / (2.0 * x);
    assert_abs_diff_eq!(implicit, 0.353_553_4, epsilon = 1e-7);

    // Central difference of the whole solver, tol 1e-14, step 1e-6.
    let h = 1e-6;
    let fd = (sqrt_by_bisection(2.0 + h) - sqrt_by_bisection(2.0 - h)) / (2.0 * h);
    assert_relative_eq!(fd, implicit, epsilon = 1e-7, max_relative = 1e-7);

    // The seed's one-sided check: √2.001 ≈ 1.4145671, slope ≈ 0.3535.
    let nudged = sqrt_by_bisection(2.001);
    assert_abs_diff_eq!(nudged, 1.414_567_1, epsilon = 1e-7);
    assert_abs_diff_eq!((nudged - x) / 0.001, 0.3535, epsilon = 1e-4);
}

#[test]
fn a_root_at_either_end_is_returned() {
    assert_eq!(bisect(|x| x - 1.0, 1.0, 3.0, 1e-12), Ok(1.0));
    assert_eq!(bisect(|x| x - 3.0, 1.0, 3.0, 1e-12), Ok(3.0));
}

#[test]
fn an_exact_zero_at_a_midpoint_stops_the_search() {
    let mut calls = 0;
    let root = bisect(
        |x| {
            calls += 1;
            x
        },
        -1.0,
        1.0,
        1e-12,
    );
    assert_eq!(root, Ok(0.0));
    assert_eq!(calls, 3); // f(lo), f(hi), f(0)
}

#[test]
fn the_answer_is_within_half_the_tolerance() {
    for tol in [1e-1, 1e-4, 1e-9] {
        let x = bisect(|x| x.cos() - x, 0.0, 1.0, tol).unwrap();
        // The fixed point of cos, 0.7390851332151607.
        assert!(
            (x - 0.739_085_133_215_160_7).abs() <= tol / 2.0,
            "tol {tol}: {x}"
        );
    }
}

#[test]
fn a_tolerance_below_float_spacing_still_terminates() {
    let x = bisect(|x| x * x - 2.0, 1.0, 2.0, 1e-300).unwrap();
    assert!((x - 2f64.sqrt()).abs() <= 2.0 * f64::EPSILON, "{x}");
}

#[test]
fn a_huge_bracket_does_not_overflow() {
    let x = bisect(|x| x - 1.0, -f64::MAX, f64::MAX, 1e-9).unwrap();
    assert_abs_diff_eq!(x, 1.0, epsilon = 1e-9);
}

#[test]
fn a_jump_through_zero_is_located() {
    let x = bisect(|x| if x < 0.3 { -1.0 } else { 1.0 }, 0.0, 1.0, 1e-12).unwrap();
    assert_abs_diff_eq!(x, 0.3, epsilon = 1e-12);
}

#[test]
fn bad_brackets_are_errors() {
    let f = |x: f64| x;
    assert_eq!(
        bisect(f, 1.0, 1.0, 1e-9),
        Err(SolveError::EmptyBracket { lo: 1.0, hi: 1.0 })
    );
    assert_eq!(
        bisect(f, 2.0, -1.0, 1e-9),
        Err(SolveError::EmptyBracket { lo: 2.0, hi: -1.0 })
    );
    let err = bisect(|x| x * x + 1.0, -1.0, 1.0, 1e-9).unwrap_err();
    assert_eq!(
        err,
        SolveError::NoSignChange {
            lo: -1.0,
            hi: 1.0,
            f_lo: 2.0,
            f_hi: 2.0
        }
    );
    assert!(
        err.to_string().contains("no sign change in [-1, 1]"),
        "{err}"
    );
}

#[test]
fn non_finite_inputs_are_errors() {
    let f = |x: f64| x;
    let cases = [
        (f64::NAN, 1.0, 1e-9, "lo"),
        (-1.0, f64::INFINITY, 1e-9, "hi"),
        (f64::NEG_INFINITY, 1.0, 1e-9, "lo"),
        (-1.0, 1.0, f64::NAN, "tol"),
        (-1.0, 1.0, f64::INFINITY, "tol"),
    ];
    for (lo, hi, tol, which) in cases {
        match bisect(f, lo, hi, tol) {
            Err(SolveError::NonFinite { argument, .. }) => assert_eq!(argument, which),
            other => panic!("({lo}, {hi}, {tol}): {other:?}"),
        }
    }
}

#[test]
fn a_non_positive_tolerance_is_an_error() {
    let f = |x: f64| x;
    assert_eq!(
        bisect(f, -1.0, 1.0, 0.0),
        Err(SolveError::NonPositiveTolerance { tol: 0.0 })
    );
    assert_eq!(
        bisect(f, -1.0, 1.0, -1e-9),
        Err(SolveError::NonPositiveTolerance { tol: -1e-9 })
    );
    let msg = bisect(f, -1.0, 1.0, 0.0).unwrap_err().to_string();
    assert!(msg.contains("tolerance above 0"), "{msg}");
}

#[test]
fn nan_from_f_is_an_error() {
    // At an end.
    assert_eq!(
        bisect(|_| f64::NAN, 0.0, 1.0, 1e-9),
        Err(SolveError::NotANumber { x: 0.0 })
    );
    // At a midpoint.
    let err = bisect(
        |x| if x == 0.5 { f64::NAN } else { x - 0.7 },
        0.0,
        1.0,
        1e-9,
    )
    .unwrap_err();
    assert_eq!(err, SolveError::NotANumber { x: 0.5 });
    let boxed: Box<dyn std::error::Error> = Box::new(err);
    assert_eq!(boxed.to_string(), "f returned NaN at x = 0.5");
}
