//! Root finding, for functions defined implicitly by an equation.
//!
//! A solver's loop is run as ordinary code and never differentiated: the
//! derivative of its answer comes from the implicit function theorem,
//! `dx/dθ = -(∂r/∂θ)/(∂r/∂x)` at the root of the residual `r(x, θ)`.
//!
//! Two bracketing solvers, with the same checks and the same errors:
//! [`bisect`] (halves the bracket, about 50 evaluations to 1e-14 on a unit
//! bracket) and [`brent`] (interpolation safeguarded by bisection, a
//! handful of evaluations on a smooth function). Both keep a sign change
//! inside the bracket at every step, so neither can wander off.
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

/// Why [`bisect`] or [`brent`] could not return a root.
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
    /// The solution of `#[differentiable(implicit = ..)]` has no finite
    /// derivative at the root: the residual's derivative in the solution,
    /// ∂r/∂x, is zero or not finite there, or a quotient
    /// dx/dθ = −(∂r/∂θ)/(∂r/∂x) is not finite while ∂r/∂θ is (∂r/∂x so
    /// small next to ∂r/∂θ that the quotient overflows).
    SingularDerivative {
        /// ∂r/∂x at the root.
        derivative: f64,
    },
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SolveError::NonFinite { argument, value } => {
                write!(f, "root finding needs a finite `{argument}`, got {value}")
            }
            SolveError::NonPositiveTolerance { tol } => write!(
                f,
                "root finding needs a tolerance above 0, got {tol} \
                 (a bracket never shrinks to width {tol})"
            ),
            SolveError::EmptyBracket { lo, hi } => {
                write!(f, "root finding needs lo < hi, got [{lo}, {hi}]")
            }
            SolveError::NoSignChange { lo, hi, f_lo, f_hi } => write!(
                f,
                "no sign change in [{lo}, {hi}]: f(lo) = {f_lo}, f(hi) = {f_hi}"
            ),
            SolveError::NotANumber { x } => write!(f, "f returned NaN at x = {x}"),
            SolveError::SingularDerivative { derivative } => write!(
                f,
                "the residual's derivative in the solution is {derivative} at the root, \
                 so the solution is not differentiable there \
                 (dx/dθ = −(∂r/∂θ)/(∂r/∂x) is not a finite number)"
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
    let mut eval = checked(&mut f);
    let f_lo = match open_bracket(&mut eval, lo, hi, tol)? {
        Bracket::Root(x) => return Ok(x),
        Bracket::SignChange { f_lo, .. } => f_lo,
    };

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

/// The most interpolation steps [`brent`] takes before it finishes the
/// search by bisection.
///
/// On smooth functions Brent's method converges in well under a hundred
/// steps, and its safeguard (an interpolated step must be less than half
/// the step before last, or a bisection is taken instead) keeps it from
/// stalling elsewhere. This bound caps the work on a pathological `f`:
/// after it, the remaining bracket, which still holds a sign change, is
/// handed to [`bisect`], which always terminates.
pub const MAX_BRENT_STEPS: u32 = 500;

/// A root of `f` in `[lo, hi]` by Brent's method: inverse quadratic
/// interpolation and secant steps, safeguarded by bisection.
///
/// Needs no derivative and keeps, at every step, a bracket `[b, c]` whose
/// ends differ in sign, exactly like [`bisect`]; but where `f` is smooth it
/// converges superlinearly, typically in 5–15 evaluations of `f` for a
/// tolerance of 1e-12 where bisection takes 40 or more. An interpolated
/// step is accepted only if it lands inside the bracket and shrinks the
/// step at least by half every two steps; otherwise the step is a
/// bisection. This is R. P. Brent's `zeroin` (*Algorithms for Minimization
/// without Derivatives*, 1973, ch. 4).
///
/// `f(lo)` and `f(hi)` must have opposite signs (or one of them be zero,
/// and then that end is the root). The inputs are checked exactly as
/// [`bisect`] checks them, and give the same errors.
///
/// **Convergence.** With `δ = 2·ε·|b| + tol/2` (`ε` = [`f64::EPSILON`],
/// `b` the current best estimate, the end of the bracket where `|f|` is
/// smallest), the search stops and returns `b` when the bracket `[b, c]`
/// is at most `2δ` wide (so `b` is within `tol + 4ε|b|` of a root of a
/// continuous `f`: the relative term keeps a `tol` finer than the float
/// spacing near the root from stalling the search), or when `f(b)` is
/// exactly zero. Every step moves `b` by at least `δ`. After
/// [`MAX_BRENT_STEPS`] steps without convergence the remaining bracket is
/// finished by [`bisect`] with the same `tol`.
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
/// use autograd_runtime::solve::{brent, SolveError};
///
/// // The fixed point of cos, in a handful of evaluations.
/// let mut calls = 0;
/// let x = brent(|x| { calls += 1; x.cos() - x }, 0.0, 1.0, 1e-12)?;
/// assert!((x - 0.739_085_133_215_160_7).abs() <= 1e-12);
/// assert!(calls <= 12, "{calls} evaluations");
///
/// // The same checks as bisection: no sign change is an error, not a panic.
/// let err = brent(|x| x * x + 1.0, -1.0, 1.0, 1e-12).unwrap_err();
/// assert!(matches!(err, SolveError::NoSignChange { .. }));
/// assert!(matches!(
///     brent(|x| x, -1.0, 1.0, 0.0),
///     Err(SolveError::NonPositiveTolerance { .. })
/// ));
/// # Ok::<(), SolveError>(())
/// ```
pub fn brent<F: FnMut(f64) -> f64>(
    mut f: F,
    lo: f64,
    hi: f64,
    tol: f64,
) -> Result<f64, SolveError> {
    let mut eval = checked(&mut f);
    let (f_lo, f_hi) = match open_bracket(&mut eval, lo, hi, tol)? {
        Bracket::Root(x) => return Ok(x),
        Bracket::SignChange { f_lo, f_hi } => (f_lo, f_hi),
    };

    // b: the best estimate; a: the previous b; c: the end of the bracket
    // opposite b (f(b) and f(c) differ in sign). d: the last step, e: the
    // one before.
    let (mut a, mut fa) = (lo, f_lo);
    let (mut b, mut fb) = (hi, f_hi);
    let (mut c, mut fc) = (a, fa);
    let mut d = b - a;
    let mut e = d;
    for _ in 0..MAX_BRENT_STEPS {
        if (fb < 0.0) == (fc < 0.0) {
            // b crossed the root: the bracket's other end is now a.
            c = a;
            fc = fa;
            d = b - a;
            e = d;
        }
        if fc.abs() < fb.abs() {
            // Keep the smaller residual at b.
            a = b;
            b = c;
            c = a;
            fa = fb;
            fb = fc;
            fc = fa;
        }
        let delta = 2.0 * f64::EPSILON * b.abs() + 0.5 * tol;
        // Half the bracket, from b towards c; (c - b) / 2 cannot overflow
        // where c - b would.
        let half = 0.5 * c - 0.5 * b;
        if half.abs() <= delta || fb == 0.0 {
            return Ok(b);
        }
        if e.abs() >= delta && fa.abs() > fb.abs() {
            // Try interpolation: secant through a and b, or inverse
            // quadratic through a, b and c. The step is p / q.
            let s = fb / fa;
            let (mut p, mut q);
            if a == c {
                p = 2.0 * half * s;
                q = 1.0 - s;
            } else {
                let qa = fa / fc;
                let r = fb / fc;
                p = s * (2.0 * half * qa * (qa - r) - (b - a) * (r - 1.0));
                q = (qa - 1.0) * (r - 1.0) * (s - 1.0);
            }
            if p > 0.0 {
                q = -q;
            } else {
                p = -p;
            }
            // Accept only a step that stays well inside the bracket and is
            // less than half the step before last.
            if 2.0 * p < (3.0 * half * q - (delta * q).abs()).min((e * q).abs()) {
                e = d;
                d = p / q;
            } else {
                d = half;
                e = d;
            }
        } else {
            d = half;
            e = d;
        }
        a = b;
        fa = fb;
        // Move by at least delta, towards c.
        b += if d.abs() > delta {
            d
        } else {
            delta.copysign(half)
        };
        fb = eval(b)?;
    }
    // Pathological f: finish the current bracket by bisection. The last
    // step may have crossed the root, and then the bracket is [a, b].
    if fb == 0.0 {
        return Ok(b);
    }
    let other = if (fb < 0.0) == (fc < 0.0) { a } else { c };
    let (lo, hi) = if b < other { (b, other) } else { (other, b) };
    drop(eval);
    bisect(f, lo, hi, tol)
}

/// `f` with NaN turned into [`SolveError::NotANumber`].
fn checked<F: FnMut(f64) -> f64>(f: &mut F) -> impl FnMut(f64) -> Result<f64, SolveError> + '_ {
    move |x| {
        let y = f(x);
        if y.is_nan() {
            Err(SolveError::NotANumber { x })
        } else {
            Ok(y)
        }
    }
}

/// What the checks of a bracket found.
enum Bracket {
    /// `f` is zero at an end.
    Root(f64),
    /// `f(lo)` and `f(hi)` are nonzero and differ in sign.
    SignChange { f_lo: f64, f_hi: f64 },
}

/// The checks every bracketing solver makes before its first step: finite
/// inputs, a positive tolerance, `lo < hi`, and a sign change of `f`.
fn open_bracket(
    eval: &mut impl FnMut(f64) -> Result<f64, SolveError>,
    lo: f64,
    hi: f64,
    tol: f64,
) -> Result<Bracket, SolveError> {
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
    let f_lo = eval(lo)?;
    if f_lo == 0.0 {
        return Ok(Bracket::Root(lo));
    }
    let f_hi = eval(hi)?;
    if f_hi == 0.0 {
        return Ok(Bracket::Root(hi));
    }
    if (f_lo < 0.0) == (f_hi < 0.0) {
        return Err(SolveError::NoSignChange { lo, hi, f_lo, f_hi });
    }
    Ok(Bracket::SignChange { f_lo, f_hi })
}
