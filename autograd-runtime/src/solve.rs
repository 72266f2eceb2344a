//! Root finding, for functions defined implicitly by an equation.
//!
//! A solver's loop is run as ordinary code and never differentiated: the
//! derivative of its answer comes from the implicit function theorem,
//! `dx/dθ = -(∂r/∂θ)/(∂r/∂x)` at the root of the residual `r(x, θ)`.
//!
//! # Example
//!
//! √2 as the root of x² − 2, and its derivative in c = 2 from the
//! implicit function theorem, 1/(2x):
//!
//! ```
//! use autograd_runtime::solve::bisect;
//!
//! let c = 2.0;
//! let x = bisect(|x| x * x - c, 0.0, 2.0, 1e-14)?;
//! assert!((x - 1.4142136).abs() < 1e-7);
//! let dx_dc = 1.0 / (2.0 * x);
//! assert!((dx_dc - 0.3535534).abs() < 1e-7);
//! # Ok::<(), autograd_runtime::solve::SolveError>(())
//! ```

use core::fmt;

/// The most halvings [`bisect`] performs.
///
/// Halving the widest finite bracket (about 2¹⁰²⁵) down to the smallest
/// gap between two `f64`s (2⁻¹⁰⁷⁴) takes fewer than 2100 steps, and the
/// search stops earlier when the bracket holds two adjacent floats, so this
/// bound only guards against the unforeseen.
pub const MAX_HALVINGS: u32 = 2200;

/// Why [`bisect`] could not return a root.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum SolveError {
    /// `lo`, `hi` or `tol` is infinite or NaN.
    NonFinite {
        /// Which argument: `"lo"`, `"hi"` or `"tol"`.
        argument: &'static str,
        /// Its value.
        value: f64,
    },
    /// `tol` is zero or negative.
    NonPositiveTolerance {
        /// The tolerance given.
        tol: f64,
    },
    /// The bracket is empty or reversed: `lo >= hi`.
    EmptyBracket {
        /// The lower end.
        lo: f64,
        /// The upper end.
        hi: f64,
    },
    /// `f(lo)` and `f(hi)` have the same sign, so the bracket need not hold
    /// a root.
    NoSignChange {
        /// The lower end.
        lo: f64,
        /// The upper end.
        hi: f64,
        /// `f(lo)`.
        f_lo: f64,
        /// `f(hi)`.
        f_hi: f64,
    },
    /// `f` returned NaN.
    NotANumber {
        /// The point at which it did.
        x: f64,
    },
    /// The residual's derivative in the solution is zero or not finite at
    /// the root, so the implicit function theorem gives no derivative
    /// there (`#[differentiable(implicit = ..)]`).
    SingularDerivative {
        /// ∂r/∂x at the root.
        derivative: f64,
    },
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SolveError::NonFinite { argument, value } => {
                write!(f, "bisection needs a finite `{argument}`, got {value}")
            }
            SolveError::NonPositiveTolerance { tol } => write!(
                f,
                "bisection needs a tolerance above 0, got {tol} \
                 (a bracket never shrinks to width {tol})"
            ),
            SolveError::EmptyBracket { lo, hi } => {
                write!(f, "bisection needs lo < hi, got [{lo}, {hi}]")
            }
            SolveError::NoSignChange { lo, hi, f_lo, f_hi } => write!(
                f,
                "no sign change in [{lo}, {hi}]: f(lo) = {f_lo}, f(hi) = {f_hi}"
            ),
            SolveError::NotANumber { x } => write!(f, "f returned NaN at x = {x}"),
            SolveError::SingularDerivative { derivative } => write!(
                f,
                "the residual's derivative in the solution is {derivative} at the root, so the solution is not differentiable there"
            ),
        }
    }
}

impl std::error::Error for SolveError {}

/// A root of `f` in `[lo, hi]` by bisection.
///
/// `f(lo)` and `f(hi)` must have opposite signs (or one of them be zero,
/// and then that end is the root). Each step evaluates `f` at the midpoint
/// and keeps the half whose ends still differ in sign.
///
/// **Convergence.** The search stops when the bracket is at most `tol`
/// wide, returning its midpoint (so the answer is within `tol / 2` of a
/// root of a continuous `f`); when `f` is exactly zero at a midpoint,
/// returning that point; or when the bracket's ends are adjacent floats and
/// cannot be split further (a `tol` finer than the float spacing near the
/// root asks for more than `f64` holds). At most [`MAX_HALVINGS`] halvings
/// are performed.
///
/// # Errors
///
/// - [`SolveError::NonFinite`] when `lo`, `hi` or `tol` is infinite or NaN;
/// - [`SolveError::NonPositiveTolerance`] when `tol <= 0`;
/// - [`SolveError::EmptyBracket`] when `lo >= hi`;
/// - [`SolveError::NoSignChange`] when `f(lo)` and `f(hi)` are nonzero and
///   of the same sign;
/// - [`SolveError::NotANumber`] when `f` returns NaN.
///
/// # Example
///
/// ```
/// use autograd_runtime::solve::{bisect, SolveError};
///
/// let x = bisect(|x| x * x - 2.0, 1.0, 2.0, 1e-12)?;
/// assert!((x - 2f64.sqrt()).abs() <= 1e-12);
///
/// // x² + 1 has no root: an error, not a panic.
/// let err = bisect(|x| x * x + 1.0, -1.0, 1.0, 1e-12).unwrap_err();
/// assert!(matches!(err, SolveError::NoSignChange { .. }));
/// # Ok::<(), SolveError>(())
/// ```
pub fn bisect<F: FnMut(f64) -> f64>(
    mut f: F,
    lo: f64,
    hi: f64,
    tol: f64,
) -> Result<f64, SolveError> {
    for (argument, value) in [("lo", lo), ("hi", hi), ("tol", tol)] {
        if !value.is_finite() {
            return Err(SolveError::NonFinite { argument, value });
        }
    }
    if tol <= 0.0 {
        return Err(SolveError::NonPositiveTolerance { tol });
    }
    if lo >= hi {
        return Err(SolveError::EmptyBracket { lo, hi });
    }
    let mut eval = |x: f64| {
        let y = f(x);
        if y.is_nan() {
            Err(SolveError::NotANumber { x })
        } else {
            Ok(y)
        }
    };
    let f_lo = eval(lo)?;
    if f_lo == 0.0 {
        return Ok(lo);
    }
    let f_hi = eval(hi)?;
    if f_hi == 0.0 {
        return Ok(hi);
    }
    if (f_lo < 0.0) == (f_hi < 0.0) {
        return Err(SolveError::NoSignChange { lo, hi, f_lo, f_hi });
    }

    let (mut lo, mut hi) = (lo, hi);
    let lo_negative = f_lo < 0.0;
    for _ in 0..MAX_HALVINGS {
        // `hi - lo` may overflow to +inf for a huge bracket; that is > tol.
        if hi - lo <= tol {
            break;
        }
        // midpoint() cannot overflow, unlike (lo + hi) / 2.
        let mid = lo.midpoint(hi);
        if mid <= lo || mid >= hi {
            break; // lo and hi are adjacent floats
        }
        let f_mid = eval(mid)?;
        if f_mid == 0.0 {
            return Ok(mid);
        }
        if (f_mid < 0.0) == lo_negative {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(lo.midpoint(hi))
}
