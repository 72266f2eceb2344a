//! argmin's solvers on a generated gradient (feature `argmin`).
//!
//! [`GradientProblem`] wraps a function that returns the value and the
//! gradient at a point, typically a closure around a generated `NAME_grad`,
//! and implements argmin 0.11's [`CostFunction`] and [`Gradient`] for
//! `Vec<f64>` parameters, so any of argmin's gradient-based solvers
//! (L-BFGS, BFGS, nonlinear conjugate gradients, steepest descent) runs on
//! it. [`HessianProblem`] does the same from a function that also returns
//! the Hessian (a generated `NAME_hessian`) and implements argmin's
//! [`Hessian`] too, for its second-order solvers. The feature also turns
//! on `argmin-math`'s `vec` feature, which those solvers need for
//! `Vec<f64>`.
//!
//! # Example
//!
//! ```
//! use argmin::core::{Executor, State};
//! use argmin::solver::linesearch::MoreThuenteLineSearch;
//! use argmin::solver::quasinewton::LBFGS;
//! use autograd::argmin::GradientProblem;
//! use autograd::differentiable;
//!
//! #[differentiable]
//! fn rosenbrock(x: &[f64]) -> f64 {
//!     let mut f = 0.0;
//!     for i in 1..x.len() {
//!         let a = 1.0 - x[i - 1];
//!         let b = x[i] - x[i - 1] * x[i - 1];
//!         f += a * a + 100.0 * b * b;
//!     }
//!     f
//! }
//!
//! // `rosenbrock_grad(x)` returns `(f64, Vec<f64>)`: the value and the gradient.
//! let problem = GradientProblem::new(|x: &[f64]| rosenbrock_grad(x));
//! let solver = LBFGS::new(MoreThuenteLineSearch::new(), 7);
//! let result = Executor::new(problem, solver)
//!     .configure(|state| state.param(vec![-1.2, 1.0, 0.5]).max_iters(200))
//!     .run()?;
//!
//! let best = result.state.get_best_param().expect("L-BFGS keeps its best point");
//! assert!(best.iter().all(|v| (v - 1.0).abs() < 1e-6), "{best:?}");
//! // argmin asked for a cost and a gradient at each point; each pair was one
//! // call of `rosenbrock_grad`.
//! let counts = &result.problem.counts;
//! let asked = counts["cost_count"] + counts["gradient_count"];
//! let calls = result.problem.problem.as_ref().map_or(0, GradientProblem::evaluations);
//! assert!(calls < asked, "{calls} calls for {asked} requests");
//! # Ok::<(), argmin::core::Error>(())
//! ```

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use ::argmin::core::{ArgminError, CostFunction, Error, Gradient, Hessian};
use nalgebra::{DMatrix, DVector};

/// An argmin problem over `Vec<f64>` parameters, from one function that
/// returns the value and the gradient at a point.
///
/// argmin asks for the cost and for the gradient separately, and its line
/// searches ask for both at the same point one after the other: the
/// problem keeps the last evaluation, so such a pair costs one call of the
/// function. [`evaluations`](GradientProblem::evaluations) counts the calls.
///
/// For a function with other arguments than the parameters, close over
/// them: `GradientProblem::new(|p: &[f64]| loss_grad(p, &data))`. For one
/// with several differentiable arguments, pack them into one slice and
/// split it in the closure.
///
/// # Errors
///
/// [`cost`](CostFunction::cost) and [`gradient`](Gradient::gradient)
/// return argmin's `InvalidParameter` error, and the solver stops with it,
/// when the gradient does not have one entry per parameter. A NaN or
/// infinite value or gradient is passed to the solver as it is.
pub struct GradientProblem<F> {
    function: F,
    last: Mutex<Option<Evaluation>>,
    calls: AtomicU64,
}

/// The function's result at one point.
struct Evaluation {
    param: Vec<f64>,
    value: f64,
    gradient: Vec<f64>,
}

impl<F> GradientProblem<F>
where
    F: Fn(&[f64]) -> (f64, Vec<f64>),
{
    /// The problem of minimising `function`'s value, where `function(p)`
    /// returns `(value, gradient)` at `p`.
    pub fn new(function: F) -> Self {
        GradientProblem {
            function,
            last: Mutex::new(None),
            calls: AtomicU64::new(0),
        }
    }

    /// How many times the function has been called.
    pub fn evaluations(&self) -> u64 {
        self.calls.load(Ordering::Relaxed)
    }

    /// The value and gradient at `param`: the last evaluation's if it was
    /// at the same point (bit for bit), else a new call.
    fn evaluate<T>(&self, param: &[f64], read: impl FnOnce(&Evaluation) -> T) -> Result<T, Error> {
        let mut last = self.last.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(e) = last.as_ref().filter(|e| same_point(&e.param, param)) {
            return Ok(read(e));
        }
        self.calls.fetch_add(1, Ordering::Relaxed);
        let (value, gradient) = (self.function)(param);
        if gradient.len() != param.len() {
            return Err(ArgminError::InvalidParameter {
                text: format!(
                    "the gradient function returned {} partial derivative(s) for {} parameter(s)",
                    gradient.len(),
                    param.len()
                ),
            }
            .into());
        }
        let e = last.insert(Evaluation {
            param: param.to_vec(),
            value,
            gradient,
        });
        Ok(read(e))
    }
}

/// Whether two points are the same bit for bit (so 0.0 and −0.0 differ, as
/// they may for the function).
fn same_point(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

impl<F> CostFunction for GradientProblem<F>
where
    F: Fn(&[f64]) -> (f64, Vec<f64>),
{
    type Param = Vec<f64>;
    type Output = f64;

    fn cost(&self, param: &Vec<f64>) -> Result<f64, Error> {
        self.evaluate(param, |e| e.value)
    }
}

impl<F> Gradient for GradientProblem<F>
where
    F: Fn(&[f64]) -> (f64, Vec<f64>),
{
    type Param = Vec<f64>;
    type Gradient = Vec<f64>;

    fn gradient(&self, param: &Vec<f64>) -> Result<Vec<f64>, Error> {
        self.evaluate(param, |e| e.gradient.clone())
    }
}

/// An argmin problem over `Vec<f64>` parameters with a Hessian, from one
/// function that returns the value, the gradient and the Hessian at a
/// point: a generated `NAME_hessian` (`#[differentiable(hessian)]`), or a
/// closure around one. It implements [`CostFunction`], [`Gradient`] and
/// [`Hessian`] (as `Vec<Vec<f64>>`, rows), so argmin's second-order
/// solvers that take a `Vec<f64>` problem (Newton-CG, trust region with
/// Steihaug or Cauchy point) run on it.
///
/// As [`GradientProblem`], it keeps the last evaluation: a cost, a
/// gradient and a Hessian at one point are one call of the function.
///
/// # Errors
///
/// The methods return argmin's `InvalidParameter` error when the gradient
/// does not have one entry per parameter or the Hessian is not n × n.
///
/// # Example
///
/// ```
/// use argmin::core::{Executor, State};
/// use argmin::solver::trustregion::{Steihaug, TrustRegion};
/// use autograd::argmin::HessianProblem;
/// use autograd::differentiable;
///
/// #[differentiable(hessian)]
/// fn rosenbrock(x: &[f64]) -> f64 {
///     let mut f = 0.0;
///     for i in 1..x.len() {
///         let a = 1.0 - x[i - 1];
///         let b = x[i] - x[i - 1] * x[i - 1];
///         f += a * a + 100.0 * b * b;
///     }
///     f
/// }
///
/// let problem = HessianProblem::new(|x: &[f64]| rosenbrock_hessian(x));
/// let solver = TrustRegion::new(Steihaug::new());
/// let result = Executor::new(problem, solver)
///     .configure(|state| state.param(vec![-1.2, 1.0, 0.5]).max_iters(200))
///     .run()?;
/// let best = result.state.get_best_param().expect("the trust region keeps its best point");
/// assert!(best.iter().all(|v| (v - 1.0).abs() < 1e-6), "{best:?}");
/// # Ok::<(), argmin::core::Error>(())
/// ```
pub struct HessianProblem<F> {
    function: F,
    last: Mutex<Option<SecondOrder>>,
    calls: AtomicU64,
}

/// The function's result at one point.
struct SecondOrder {
    param: Vec<f64>,
    value: f64,
    gradient: Vec<f64>,
    hessian: DMatrix<f64>,
}

impl<F> HessianProblem<F>
where
    F: Fn(&[f64]) -> (f64, DVector<f64>, DMatrix<f64>),
{
    /// The problem of minimising `function`'s value, where `function(p)`
    /// returns `(value, gradient, Hessian)` at `p`.
    pub fn new(function: F) -> Self {
        HessianProblem {
            function,
            last: Mutex::new(None),
            calls: AtomicU64::new(0),
        }
    }

    /// How many times the function has been called.
    pub fn evaluations(&self) -> u64 {
        self.calls.load(Ordering::Relaxed)
    }

    /// The evaluation at `param`: the last one if it was at the same point
    /// (bit for bit), else a new call.
    fn evaluate<T>(&self, param: &[f64], read: impl FnOnce(&SecondOrder) -> T) -> Result<T, Error> {
        let mut last = self.last.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(e) = last.as_ref().filter(|e| same_point(&e.param, param)) {
            return Ok(read(e));
        }
        self.calls.fetch_add(1, Ordering::Relaxed);
        let (value, gradient, hessian) = (self.function)(param);
        let n = param.len();
        if gradient.len() != n || hessian.shape() != (n, n) {
            return Err(ArgminError::InvalidParameter {
                text: format!(
                    "the Hessian function returned {} partial derivative(s) and a {}×{} Hessian for {n} parameter(s)",
                    gradient.len(),
                    hessian.nrows(),
                    hessian.ncols(),
                ),
            }
            .into());
        }
        let e = last.insert(SecondOrder {
            param: param.to_vec(),
            value,
            gradient: gradient.as_slice().to_vec(),
            hessian,
        });
        Ok(read(e))
    }
}

impl<F> CostFunction for HessianProblem<F>
where
    F: Fn(&[f64]) -> (f64, DVector<f64>, DMatrix<f64>),
{
    type Param = Vec<f64>;
    type Output = f64;

    fn cost(&self, param: &Vec<f64>) -> Result<f64, Error> {
        self.evaluate(param, |e| e.value)
    }
}

impl<F> Gradient for HessianProblem<F>
where
    F: Fn(&[f64]) -> (f64, DVector<f64>, DMatrix<f64>),
{
    type Param = Vec<f64>;
    type Gradient = Vec<f64>;

    fn gradient(&self, param: &Vec<f64>) -> Result<Vec<f64>, Error> {
        self.evaluate(param, |e| e.gradient.clone())
    }
}

impl<F> Hessian for HessianProblem<F>
where
    F: Fn(&[f64]) -> (f64, DVector<f64>, DMatrix<f64>),
{
    type Param = Vec<f64>;
    type Hessian = Vec<Vec<f64>>;

    fn hessian(&self, param: &Vec<f64>) -> Result<Vec<Vec<f64>>, Error> {
        self.evaluate(param, |e| {
            e.hessian
                .row_iter()
                .map(|row| row.iter().copied().collect())
                .collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// f(p) = Σ (pᵢ − i)², ∇f = 2(p − i).
    fn squares(p: &[f64]) -> (f64, Vec<f64>) {
        let value = p
            .iter()
            .enumerate()
            .map(|(i, v)| (v - i as f64).powi(2))
            .sum();
        let gradient = p
            .iter()
            .enumerate()
            .map(|(i, v)| 2.0 * (v - i as f64))
            .collect();
        (value, gradient)
    }

    #[test]
    fn a_cost_and_a_gradient_at_one_point_are_one_call() {
        let problem = GradientProblem::new(squares);
        let p = vec![1.0, 3.0];
        assert_eq!(problem.cost(&p).unwrap(), 5.0);
        assert_eq!(problem.gradient(&p).unwrap(), vec![2.0, 4.0]);
        assert_eq!(problem.evaluations(), 1);
        // Another point is a new call, and so is −0.0 after 0.0.
        assert_eq!(problem.gradient(&vec![0.0, 1.0]).unwrap(), vec![0.0, 0.0]);
        assert_eq!(problem.cost(&vec![-0.0, 1.0]).unwrap(), 0.0);
        assert_eq!(problem.evaluations(), 3);
    }

    #[test]
    fn a_gradient_of_the_wrong_length_is_an_error() {
        let problem = GradientProblem::new(|p: &[f64]| (p[0], vec![1.0; p.len() + 1]));
        let message = problem.gradient(&vec![2.0]).unwrap_err().to_string();
        assert!(
            message.contains("returned 2 partial derivative(s) for 1 parameter(s)"),
            "{message}"
        );
        assert!(problem.cost(&vec![2.0]).is_err());
    }

    /// f(p) = p₀² + 3p₀p₁, ∇f = (2p₀ + 3p₁, 3p₀), H = [[2, 3], [3, 0]].
    fn quadratic(p: &[f64]) -> (f64, DVector<f64>, DMatrix<f64>) {
        (
            p[0] * p[0] + 3.0 * p[0] * p[1],
            DVector::from_vec(vec![2.0 * p[0] + 3.0 * p[1], 3.0 * p[0]]),
            DMatrix::from_row_slice(2, 2, &[2.0, 3.0, 3.0, 0.0]),
        )
    }

    #[test]
    fn a_cost_a_gradient_and_a_hessian_at_one_point_are_one_call() {
        let problem = HessianProblem::new(quadratic);
        let p = vec![1.0, 2.0];
        assert_eq!(problem.cost(&p).unwrap(), 7.0);
        assert_eq!(problem.gradient(&p).unwrap(), vec![8.0, 3.0]);
        assert_eq!(
            problem.hessian(&p).unwrap(),
            vec![vec![2.0, 3.0], vec![3.0, 0.0]]
        );
        assert_eq!(problem.evaluations(), 1);
    }

    #[test]
    fn a_hessian_of_the_wrong_shape_is_an_error() {
        let problem = HessianProblem::new(|p: &[f64]| {
            (p[0], DVector::zeros(p.len()), DMatrix::zeros(p.len(), 1))
        });
        let message = problem.hessian(&vec![2.0, 1.0]).unwrap_err().to_string();
        assert!(
            message.contains("a 2×1 Hessian for 2 parameter(s)"),
            "{message}"
        );
    }
}
