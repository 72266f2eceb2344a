//! Brent's method: the same roots as bisection in far fewer evaluations,
//! the documented stopping rule, hard functions, and the same errors.

use approx::assert_abs_diff_eq;
use autograd_runtime::solve::{SolveError, bisect, brent};
use proptest::prelude::*;

/// A solver behind a function pointer, so both can be counted alike.
type Solver = fn(&mut dyn FnMut(f64) -> f64, f64, f64, f64) -> Result<f64, SolveError>;

/// A function, its bracket, and a fourth number (its root, or a tolerance).
type Case = (fn(f64) -> f64, f64, f64, f64);

/// Runs `solver` on `f` and counts the evaluations.
fn counted(
    solver: Solver,
    mut f: impl FnMut(f64) -> f64,
    lo: f64,
    hi: f64,
    tol: f64,
) -> (Result<f64, SolveError>, u32) {
    let mut calls = 0;
    let mut g = |x: f64| {
        calls += 1;
        f(x)
    };
    let r = solver(&mut g, lo, hi, tol);
    (r, calls)
}

fn by_brent(f: &mut dyn FnMut(f64) -> f64, lo: f64, hi: f64, tol: f64) -> Result<f64, SolveError> {
    brent(f, lo, hi, tol)
}

fn by_bisect(f: &mut dyn FnMut(f64) -> f64, lo: f64, hi: f64, tol: f64) -> Result<f64, SolveError> {
    bisect(f, lo, hi, tol)
}

/// The documented bound: within `tol + 4ε|x|` of the root.
fn bound(tol: f64, x: f64) -> f64 {
    tol + 4.0 * f64::EPSILON * x.abs()
}

#[test]
#[allow(clippy::approx_constant)] // 1.4142136 and 0.3535534 are the seed's printed values
fn sqrt_2_and_its_implicit_derivative() {
    let x = brent(|x| x * x - 2.0, 1.0, 2.0, 1e-14).unwrap();
    assert_abs_diff_eq!(x, 1.414_213_6, epsilon = 1e-7);
    assert_abs_diff_eq!(x, 2f64.sqrt(), epsilon = bound(1e-14, x));
    assert_abs_diff_eq!(1.0 / (2.0 * x), 0.353_553_4, epsilon = 1e-7);
    // Central difference of the whole solver in c.
    let solve = |c: f64| brent(|x| x * x - c, 0.0, c.max(1.0), 1e-15).unwrap();
    let h = 1e-6;
    let fd = (solve(2.0 + h) - solve(2.0 - h)) / (2.0 * h);
    assert_abs_diff_eq!(fd, 1.0 / (2.0 * 2f64.sqrt()), epsilon = 1e-8);
}

#[test]
fn far_fewer_evaluations_than_bisection_on_smooth_functions() {
    let cases: [Case; 4] = [
        (|x| x.cos() - x, 0.0, 1.0, 0.739_085_133_215_160_7),
        (|x| x * x - 2.0, 0.0, 2.0, std::f64::consts::SQRT_2),
        (|x| x.exp() - 10.0, -5.0, 5.0, 10f64.ln()),
        (
            |x| x * x * x - 2.0 * x - 5.0,
            2.0,
            3.0,
            2.094_551_481_542_326_5,
        ),
    ];
    for (f, lo, hi, root) in cases {
        let (x, n_brent) = counted(by_brent, f, lo, hi, 1e-12);
        let x = x.unwrap();
        assert_abs_diff_eq!(x, root, epsilon = bound(1e-12, root));
        let (y, n_bisect) = counted(by_bisect, f, lo, hi, 1e-12);
        assert_abs_diff_eq!(y.unwrap(), root, epsilon = 1e-12);
        assert!(
            n_brent <= 15 && 2 * n_brent < n_bisect,
            "root {root}: brent {n_brent}, bisect {n_bisect} evaluations"
        );
    }
}

#[test]
fn the_answer_is_within_the_documented_bound() {
    for tol in [1e-1, 1e-4, 1e-9, 1e-13] {
        let x = brent(|x| x.cos() - x, 0.0, 1.0, tol).unwrap();
        let root = 0.739_085_133_215_160_7;
        assert!((x - root).abs() <= bound(tol, root), "tol {tol}: {x}");
    }
}

#[test]
fn a_root_at_either_end_is_returned() {
    assert_eq!(brent(|x| x - 1.0, 1.0, 3.0, 1e-12), Ok(1.0));
    assert_eq!(brent(|x| x - 3.0, 1.0, 3.0, 1e-12), Ok(3.0));
}

#[test]
fn a_tolerance_below_float_spacing_still_terminates() {
    let x = brent(|x| x * x - 2.0, 1.0, 2.0, 1e-300).unwrap();
    assert!((x - 2f64.sqrt()).abs() <= 4.0 * f64::EPSILON, "{x}");
    // A root at 0, where the relative term vanishes.
    let (x, calls) = counted(by_brent, |x| x.sin(), -1.0, 2.0, 1e-300);
    assert!(x.unwrap().abs() <= 1e-300, "{x:?}");
    assert!(calls < 3000, "{calls}");
}

#[test]
fn a_huge_bracket_does_not_overflow() {
    let x = brent(|x| x - 1.0, -f64::MAX, f64::MAX, 1e-9).unwrap();
    assert_abs_diff_eq!(x, 1.0, epsilon = bound(1e-9, 1.0));
    let x = brent(|x| x.atan() - 0.5, -f64::MAX, f64::MAX, 1e-9).unwrap();
    assert_abs_diff_eq!(x, 0.5f64.tan(), epsilon = bound(1e-9, 1.0));
}

#[test]
fn hard_functions_fall_back_to_bisection_steps() {
    // A jump through zero: interpolation is useless, bisection finds it.
    let x = brent(|x| if x < 0.3 { -1.0 } else { 1.0 }, 0.0, 1.0, 1e-12).unwrap();
    assert_abs_diff_eq!(x, 0.3, epsilon = bound(1e-12, 0.3));
    // A triple root: interpolation converges linearly at best.
    let (x, calls) = counted(by_brent, |x| (x - 1.0).powi(3), 0.0, 3.0, 1e-12);
    assert_abs_diff_eq!(x.unwrap(), 1.0, epsilon = bound(1e-12, 1.0));
    assert!(calls < 200, "{calls}");
    // A very flat function with a root at 0: x·e^(−1/x²) (odd).
    let x = brent(
        |x: f64| {
            if x == 0.0 {
                0.0
            } else {
                x * (-1.0 / (x * x)).exp()
            }
        },
        -1.0,
        4.0,
        1e-12,
    )
    .unwrap();
    // Every |x| < 0.1 gives |f| < 1e-40: the bracket, not f, decides.
    assert!(x.abs() <= 0.2, "{x}");
}

#[test]
fn errors_are_exactly_those_of_bisection() {
    let cases: [Case; 10] = [
        (|x| x, 1.0, 1.0, 1e-9),
        (|x| x, 2.0, -1.0, 1e-9),
        (|x| x * x + 1.0, -1.0, 1.0, 1e-9),
        (|x| x, f64::NAN, 1.0, 1e-9),
        (|x| x, -1.0, f64::INFINITY, 1e-9),
        (|x| x, -1.0, 1.0, f64::NAN),
        (|x| x, -1.0, 1.0, 0.0),
        (|x| x, -1.0, 1.0, -1e-9),
        (|_| f64::NAN, 0.0, 1.0, 1e-9),
        (|x| if x > 0.9 { f64::NAN } else { x - 0.5 }, 0.0, 1.0, 1e-9),
    ];
    for (f, lo, hi, tol) in cases {
        let a = brent(f, lo, hi, tol);
        let b = bisect(f, lo, hi, tol);
        assert!(a.is_err(), "({lo}, {hi}, {tol}): {a:?}");
        // Debug text, since NaN != NaN in the error's fields.
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "({lo}, {hi}, {tol})");
    }
    assert_eq!(
        brent(|x| x, -1.0, 1.0, 0.0),
        Err(SolveError::NonPositiveTolerance { tol: 0.0 })
    );
}

#[test]
fn nan_inside_the_bracket_is_an_error() {
    // Brent's first interpolated point of x − 0.7 on [0, 1] is 0.7 itself;
    // a NaN there is reported with its abscissa.
    let err = brent(
        |x| {
            if (x - 0.7).abs() < 1e-9 {
                f64::NAN
            } else {
                x - 0.7
            }
        },
        0.0,
        1.0,
        1e-12,
    )
    .unwrap_err();
    match err {
        SolveError::NotANumber { x } => assert_abs_diff_eq!(x, 0.7, epsilon = 1e-9),
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().starts_with("f returned NaN at x = 0.7"));
}

proptest! {
    /// Any cubic with one real root in a random bracket: the root within
    /// the documented bound, and never more evaluations than bisection
    /// needs plus a few.
    #[test]
    fn random_monotone_cubics(
        root in -10.0f64..10.0,
        k in 0.01f64..100.0,
        width_lo in 0.01f64..50.0,
        width_hi in 0.01f64..50.0,
        tol_exp in -14i32..-2,
    ) {
        let tol = 10f64.powi(tol_exp);
        let f = move |x: f64| k * (x - root) + (x - root).powi(3);
        let (lo, hi) = (root - width_lo, root + width_hi);
        let (x, calls) = counted(by_brent, f, lo, hi, tol);
        let x = x.unwrap();
        prop_assert!((x - root).abs() <= bound(tol, root) + 1e-12 * root.abs(), "{} vs {}", x, root);
        let halvings = ((hi - lo) / tol).log2().ceil() as u32 + 3;
        prop_assert!(calls <= halvings + 10, "{} evaluations, bisection {}", calls, halvings);
    }
}
