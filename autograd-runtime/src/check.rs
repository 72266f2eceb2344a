//! Gradient checks: an adjoint compared, component by component, with a
//! central finite difference of the function.
//!
//! **Step.** For a component of value `x` of type `T`, the step is
//! `h = ∛ε · max(1, |x|)` with `ε` the machine epsilon of `T` (about
//! 6.1·10⁻⁶ for `f64`, 4.9·10⁻³ for `f32`). This balances the truncation
//! error of the central difference (∝ h²) against the rounding error of
//! `f(x+h) - f(x-h)` (∝ ε/h), and scales with `|x|` so large arguments are
//! really perturbed. The quotient divides by `(x+h) - (x-h)` computed from
//! the two points actually evaluated (in `f64`), not by `2h`, so rounding
//! `x ± h` to `T` does not bias the slope.
//!
//! **Errors.** For adjoint `a` and finite difference `d`, the absolute
//! error is `|a - d|` and the relative error `|a - d| / max(|a|, |d|, m)`
//! with `m = f64::MIN_POSITIVE` (so 0 when both are 0).
//! [`GradientCheck::is_within`] accepts a component when
//! `|a - d| <= abs_tol + rel_tol · max(|a|, |d|)`. A NaN anywhere (the
//! value, an adjoint, a finite difference) fails the check.

use core::fmt;

use nalgebra::{DMatrix, DVector, SMatrix};

use crate::rules::Real;

/// The finite-difference step for a component of value `x`:
/// `∛ε · max(1, |x|)`, `ε` being `T`'s machine epsilon.
///
/// # Example
///
/// ```
/// use autograd_runtime::central_difference_step;
///
/// let h = central_difference_step(100.0_f64);
/// assert!((h - 100.0 * f64::EPSILON.cbrt()).abs() < 1e-18);
/// ```
pub fn central_difference_step<T: Real>(x: T) -> T {
    let scale = x.to_f64().abs().max(1.0);
    T::from_f64(T::epsilon().to_f64().cbrt() * scale)
}

/// The central difference `(f(x+h) - f(x-h)) / ((x+h) - (x-h))` with the
/// step of [`central_difference_step`], in `f64`.
///
/// # Example
///
/// ```
/// use autograd_runtime::central_difference;
///
/// let d = central_difference(|x: f64| x.sin(), 0.0);
/// assert!((d - 1.0).abs() < 1e-10); // cos 0
/// ```
pub fn central_difference<T: Real, F: FnMut(T) -> T>(mut f: F, x: T) -> f64 {
    let h = central_difference_step(x);
    let (xp, xm) = (x + h, x - h);
    let (fp, fm) = (f(xp).to_f64(), f(xm).to_f64());
    (fp - fm) / (xp.to_f64() - xm.to_f64())
}

/// Where a checked component sits in its argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Position {
    /// The argument is a scalar.
    Scalar,
    /// Element `i` of a slice or vector.
    Element(usize),
    /// Entry `(row, col)` of a matrix.
    Entry {
        /// Row index.
        row: usize,
        /// Column index.
        col: usize,
    },
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Position::Scalar => Ok(()),
            Position::Element(i) => write!(f, "[{i}]"),
            Position::Entry { row, col } => write!(f, "[({row}, {col})]"),
        }
    }
}

/// One component of a [`GradientCheck`]: an adjoint next to its finite
/// difference.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct CheckedComponent {
    /// The argument's name.
    pub argument: String,
    /// The element within the argument.
    pub position: Position,
    /// The adjoint under test.
    pub adjoint: f64,
    /// The central finite difference.
    pub finite_difference: f64,
    /// The step `h` used.
    pub step: f64,
    /// `|adjoint - finite_difference|`.
    pub abs_error: f64,
    /// `|adjoint - finite_difference| / max(|adjoint|, |finite_difference|, f64::MIN_POSITIVE)`.
    pub rel_error: f64,
}

impl CheckedComponent {
    fn new(argument: &str, position: Position, adjoint: f64, fd: f64, step: f64) -> Self {
        let abs_error = (adjoint - fd).abs();
        let scale = adjoint.abs().max(fd.abs()).max(f64::MIN_POSITIVE);
        CheckedComponent {
            argument: argument.to_owned(),
            position,
            adjoint,
            finite_difference: fd,
            step,
            abs_error,
            rel_error: abs_error / scale,
        }
    }

    /// `|a - d| <= abs_tol + rel_tol · max(|a|, |d|)`; false on NaN.
    pub fn is_within(&self, abs_tol: f64, rel_tol: f64) -> bool {
        let scale = self.adjoint.abs().max(self.finite_difference.abs());
        self.abs_error <= abs_tol + rel_tol * scale
    }

    /// The error [`GradientCheck::worst`] ranks by: absolute below
    /// magnitude 1, relative above, `|a - d| / max(1, |a|, |d|)`; NaN when
    /// either side is NaN.
    pub fn scaled_error(&self) -> f64 {
        let scale = self
            .adjoint
            .abs()
            .max(self.finite_difference.abs())
            .max(1.0);
        if self.abs_error.is_nan() {
            f64::NAN
        } else {
            self.abs_error / scale
        }
    }
}

impl fmt::Display for CheckedComponent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}: adjoint {:e}, finite difference {:e}, abs error {:.2e}, rel error {:.2e}",
            self.argument,
            self.position,
            self.adjoint,
            self.finite_difference,
            self.abs_error,
            self.rel_error
        )
    }
}

/// A gradient check: adjoints compared with central finite differences,
/// one component per scalar, slice element or matrix entry.
///
/// Build it with [`new`](GradientCheck::new) (the function's value at the
/// point) and one call per argument; then ask for
/// [`is_within`](GradientCheck::is_within), the
/// [`worst`](GradientCheck::worst) component or the largest errors, or print
/// it. The [module docs](crate::check) give the step and error definitions.
///
/// # Example
///
/// ```
/// use autograd_runtime::GradientCheck;
///
/// // w = x·y + x at (3, 4): dw/dx = y + 1 = 5, dw/dy = x = 3.
/// let w = |x: f64, y: f64| x * y + x;
/// let (x, y) = (3.0, 4.0);
/// let mut check = GradientCheck::new(w(x, y));
/// check.scalar("x", x, 5.0, |x| w(x, y));
/// check.scalar("y", y, 3.0, |y| w(x, y));
/// assert!(check.is_within(1e-8, 1e-8));
///
/// // A wrong adjoint is caught, and the report names it.
/// let mut bad = GradientCheck::new(w(x, y));
/// bad.scalar("x", x, 5.0, |x| w(x, y));
/// bad.scalar("y", y, 4.0, |y| w(x, y));
/// assert!(!bad.is_within(1e-8, 1e-8));
/// assert_eq!(bad.worst().unwrap().argument, "y");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct GradientCheck {
    value: f64,
    components: Vec<CheckedComponent>,
    problems: Vec<String>,
}

impl GradientCheck {
    /// An empty check of a function whose value at the point is `value`.
    pub fn new(value: f64) -> GradientCheck {
        GradientCheck {
            value,
            components: Vec::new(),
            problems: Vec::new(),
        }
    }

    /// The function's value at the point.
    pub fn value(&self) -> f64 {
        self.value
    }

    /// Every component checked so far, in the order checked.
    pub fn components(&self) -> &[CheckedComponent] {
        &self.components
    }

    /// Problems that fail the check whatever the tolerance, such as an
    /// adjoint with another length than its argument.
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    /// Checks the adjoint `adjoint` of the scalar argument `name`, whose
    /// value is `x`; `f` is the function of that argument alone.
    pub fn scalar<T: Real, F: FnMut(T) -> T>(
        &mut self,
        name: &str,
        x: T,
        adjoint: T,
        f: F,
    ) -> &mut Self {
        let step = central_difference_step(x).to_f64();
        let fd = central_difference(f, x);
        self.components.push(CheckedComponent::new(
            name,
            Position::Scalar,
            adjoint.to_f64(),
            fd,
            step,
        ));
        self
    }

    fn length_problem(&mut self, name: &str, what: &str, got: usize, expected: usize) {
        self.problems.push(format!(
            "argument `{name}`: the adjoint has {got} elements, the {what} {expected}"
        ));
    }

    /// Checks the adjoint of a slice argument, element by element: `f`
    /// receives a copy of `v` with one element moved at a time.
    pub fn slice<T: Real, F: FnMut(&Vec<T>) -> T>(
        &mut self,
        name: &str,
        v: &[T],
        adjoint: &[T],
        mut f: F,
    ) -> &mut Self {
        if v.len() != adjoint.len() {
            self.length_problem(name, "slice", adjoint.len(), v.len());
            return self;
        }
        let mut work = v.to_vec();
        for (i, (&x, &a)) in v.iter().zip(adjoint).enumerate() {
            let step = central_difference_step(x).to_f64();
            let fd = central_difference(
                |xi| {
                    work[i] = xi;
                    f(&work)
                },
                x,
            );
            work[i] = x;
            self.components.push(CheckedComponent::new(
                name,
                Position::Element(i),
                a.to_f64(),
                fd,
                step,
            ));
        }
        self
    }

    /// Checks the adjoint of an array argument `[T; N]`, element by
    /// element: `f` receives a copy of `v` with one element moved at a time.
    pub fn array<T: Real, const N: usize, F: FnMut(&[T; N]) -> T>(
        &mut self,
        name: &str,
        v: &[T; N],
        adjoint: &[T; N],
        mut f: F,
    ) -> &mut Self {
        // The slice check's copy of `v` has `v`'s length, N.
        self.slice(name, v, adjoint, |work: &Vec<T>| {
            f(work
                .as_slice()
                .try_into()
                .expect("a copy of an array keeps its length"))
        })
    }

    /// Checks the adjoint of a matrix argument, entry by entry: `f`
    /// receives a copy of `m` with one entry moved at a time.
    pub fn matrix<F: FnMut(&DMatrix<f64>) -> f64>(
        &mut self,
        name: &str,
        m: &DMatrix<f64>,
        adjoint: &DMatrix<f64>,
        mut f: F,
    ) -> &mut Self {
        if m.shape() != adjoint.shape() {
            self.problems.push(format!(
                "argument `{name}`: the adjoint is {}×{}, the matrix {}×{}",
                adjoint.nrows(),
                adjoint.ncols(),
                m.nrows(),
                m.ncols()
            ));
            return self;
        }
        let mut work = m.clone();
        for col in 0..m.ncols() {
            for row in 0..m.nrows() {
                let x = m[(row, col)];
                let step = central_difference_step(x);
                let fd = central_difference(
                    |xi| {
                        work[(row, col)] = xi;
                        f(&work)
                    },
                    x,
                );
                work[(row, col)] = x;
                self.components.push(CheckedComponent::new(
                    name,
                    Position::Entry { row, col },
                    adjoint[(row, col)],
                    fd,
                    step,
                ));
            }
        }
        self
    }

    /// Checks the adjoint of a fixed-size argument (`Vector3<f64>`,
    /// `Matrix2<f64>`, any `SMatrix<f64, R, C>`) entry by entry, as
    /// [`Self::matrix`]: `f` receives a copy of `m` with one entry moved at
    /// a time.
    pub fn fixed<const R: usize, const C: usize, F: FnMut(&SMatrix<f64, R, C>) -> f64>(
        &mut self,
        name: &str,
        m: &SMatrix<f64, R, C>,
        adjoint: &SMatrix<f64, R, C>,
        mut f: F,
    ) -> &mut Self {
        let dynamic = |s: &SMatrix<f64, R, C>| DMatrix::from_column_slice(R, C, s.as_slice());
        self.matrix(name, &dynamic(m), &dynamic(adjoint), |d| {
            f(&SMatrix::from_column_slice(d.as_slice()))
        })
    }

    /// Checks the adjoint of a vector argument, element by element: `f`
    /// receives a copy of `u` with one element moved at a time.
    pub fn vector<F: FnMut(&DVector<f64>) -> f64>(
        &mut self,
        name: &str,
        u: &DVector<f64>,
        adjoint: &DVector<f64>,
        mut f: F,
    ) -> &mut Self {
        if u.len() != adjoint.len() {
            self.length_problem(name, "vector", adjoint.len(), u.len());
            return self;
        }
        let mut work = u.clone();
        for i in 0..u.len() {
            let x = u[i];
            let step = central_difference_step(x);
            let fd = central_difference(
                |xi| {
                    work[i] = xi;
                    f(&work)
                },
                x,
            );
            work[i] = x;
            self.components.push(CheckedComponent::new(
                name,
                Position::Element(i),
                adjoint[i],
                fd,
                step,
            ));
        }
        self
    }

    /// The largest absolute error; NaN if any component's is, 0 with no
    /// component.
    pub fn max_abs_error(&self) -> f64 {
        nan_max(self.components.iter().map(|c| c.abs_error))
    }

    /// The largest relative error; NaN if any component's is, 0 with no
    /// component.
    pub fn max_rel_error(&self) -> f64 {
        nan_max(self.components.iter().map(|c| c.rel_error))
    }

    /// The component with the largest
    /// [`scaled_error`](CheckedComponent::scaled_error) (a NaN ranks
    /// worst; the first one wins a tie), `None` with no component.
    pub fn worst(&self) -> Option<&CheckedComponent> {
        let mut worst: Option<&CheckedComponent> = None;
        for c in &self.components {
            let e = c.scaled_error();
            match worst {
                Some(w) if w.scaled_error().is_nan() => {}
                Some(w) if !e.is_nan() && e <= w.scaled_error() => {}
                _ => worst = Some(c),
            }
        }
        worst
    }

    /// Whether every component satisfies
    /// `|a - d| <= abs_tol + rel_tol · max(|a|, |d|)`, the value is finite
    /// and no [problem](GradientCheck::problems) was found. NaN anywhere
    /// fails.
    pub fn is_within(&self, abs_tol: f64, rel_tol: f64) -> bool {
        self.value.is_finite()
            && self.problems.is_empty()
            && self
                .components
                .iter()
                .all(|c| c.is_within(abs_tol, rel_tol))
    }
}

fn nan_max(errors: impl Iterator<Item = f64>) -> f64 {
    let mut max = 0.0_f64;
    for e in errors {
        if e.is_nan() {
            return f64::NAN;
        }
        max = max.max(e);
    }
    max
}

/// A report: the value, the largest errors, each component and the worst.
impl fmt::Display for GradientCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "gradient check at value {:e}: {} components, max abs error {:.2e}, max rel error {:.2e}",
            self.value,
            self.components.len(),
            self.max_abs_error(),
            self.max_rel_error()
        )?;
        for c in &self.components {
            writeln!(f, "  {c}")?;
        }
        for p in &self.problems {
            writeln!(f, "  problem: {p}")?;
        }
        match self.worst() {
            Some(w) => write!(f, "worst: {}{}", w.argument, w.position),
            None => write!(f, "worst: none (no component checked)"),
        }
    }
}
