//! Reductions of a `DMatrix<f64>` to a scalar: `sum` and `max`.
//!
//! # Example
//!
//! ```
//! use autograd_runtime::rules::reductions;
//! use nalgebra::DMatrix;
//!
//! let x = DMatrix::from_row_slice(1, 4, &[1.0, 5.0, 3.0, 5.0]);
//! let (value, index) = reductions::max(&x);
//! assert_eq!((value, index), (5.0, 1)); // the first of the tied 5s wins
//! let dx = reductions::max_grad(1.0, x.nrows(), x.ncols(), index);
//! assert_eq!(dx.sum(), 1.0); // a tie invents no gradient
//! ```

use nalgebra::DMatrix;

use super::Real;
use super::linalg::Dense;
use crate::rules as s;
use crate::value::filled;

type M = DMatrix<f64>;

/// Σ x: the sum of every element (nalgebra's `x.sum()`).
#[inline]
pub fn sum(x: &M) -> f64 {
    x.sum()
}

/// d(Σ x)/dx_i = 1: the scalar adjoint broadcast to the input's shape.
///
/// A sum is a chain of additions, each of which passes its adjoint
/// through, so every element receives `add_grad_lhs(grad)`.
///
/// # Panics
///
/// When `nrows · ncols` overflows `usize` or cannot be allocated (no input
/// of a sum has such a shape).
#[inline]
pub fn sum_grad(grad: f64, nrows: usize, ncols: usize) -> M {
    filled("sum", nrows, ncols, sum_grad_element(grad))
}

/// The adjoint every element of the sum's input receives: the sum's
/// additions pass `grad` through, `add_grad_lhs(grad)`.
#[inline]
pub fn sum_grad_element<T: Real>(grad: T) -> T {
    s::add_grad_lhs(grad)
}

/// out = broadcast(grad), overwriting `out` (the input's shape, any dense
/// storage) in place.
#[inline]
pub fn sum_grad_into<A: Dense>(out: &mut A, grad: A::Elem) {
    out.elements_mut().fill(sum_grad_element(grad));
}

/// acc += broadcast(grad), in place (any dense storage).
#[inline]
pub fn sum_grad_acc<A: Dense>(acc: &mut A, grad: A::Elem) {
    let g = sum_grad_element(grad);
    acc.elements_mut().iter_mut().for_each(|a| *a += g);
}

/// The sum's tangent `Σ ẋ`: reads nothing (any dense storage).
#[inline]
pub fn sum_tangent<A: Dense<Elem = f64>>(dx: &A) -> f64 {
    dx.elements().iter().sum()
}

/// max x with its winning index (column-major, as nalgebra stores).
///
/// The scan applies the two-argument rule [`max_takes_lhs`](crate::rules::max_takes_lhs)
/// left to right, so the first index wins a tie (the seed's `>=`
/// reduction) and a NaN loses to any number. The value is that of
/// nalgebra's `x.max()`, except that a tie between `-0.0` and `+0.0` always
/// reports the first. An empty matrix gives `(0.0, 0)`: nalgebra's `max()`
/// of nothing, and an index that [`max_grad`] ignores (there is no element
/// to receive a gradient).
#[inline]
pub fn max<A: Dense>(x: &A) -> (A::Elem, usize) {
    max_of_elements(x.elements())
}

/// [`max`] of elements stored column by column.
#[inline]
pub fn max_of_elements<T: Real>(data: &[T]) -> (T, usize) {
    let Some(&first) = data.first() else {
        return (T::zero(), 0);
    };
    let (mut best, mut index) = (first, 0);
    for (i, &v) in data.iter().enumerate().skip(1) {
        if !s::max_takes_lhs(best, v) {
            best = v;
            index = i;
        }
    }
    (best, index)
}

/// d(max x)/dx_i = 1 at the winning index, 0 elsewhere: the whole adjoint
/// goes to `index`, so the total leaving equals the total arriving.
///
/// An `index` outside the `nrows × ncols` shape gives all zeros.
///
/// # Panics
///
/// When `nrows · ncols` overflows `usize` or cannot be allocated (no input
/// of a max has such a shape).
#[inline]
pub fn max_grad(grad: f64, nrows: usize, ncols: usize, index: usize) -> M {
    let mut out = filled("max", nrows, ncols, 0.0);
    max_grad_acc(&mut out, grad, index);
    out
}

/// `acc[index] += grad`, in place (column-major index; out of range:
/// no-op; any dense storage).
#[inline]
pub fn max_grad_acc<A: Dense>(acc: &mut A, grad: A::Elem, index: usize) {
    if let Some(slot) = acc.elements_mut().get_mut(index) {
        *slot += grad;
    }
}

/// The max's tangent: the tangent of the winning element, `ẋ[index]`
/// (column-major), with the winner's tie convention of [`max`]; reads the
/// index [`max`] returned. An `index` outside `dx` (an empty matrix) gives
/// 0, as [`max_grad`] gives no element a gradient.
#[inline]
pub fn max_tangent<A: Dense<Elem = f64>>(dx: &A, index: usize) -> f64 {
    dx.elements().get(index).copied().unwrap_or(0.0)
}
