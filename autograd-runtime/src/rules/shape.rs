//! Shape changes: `reshape` and `transpose`. Both move values without
//! changing them, so each adjoint undoes exactly what the forward did.
//!
//! # Example
//!
//! ```
//! use autograd_runtime::rules::shape;
//! use nalgebra::DMatrix;
//!
//! let x = DMatrix::from_iterator(2, 6, (0..12).map(f64::from));
//! let y = shape::reshape(&x, 3, 4);
//! assert_eq!(y.as_slice(), x.as_slice()); // column-major order is kept
//! let dx = shape::reshape_grad(&y, x.nrows(), x.ncols());
//! assert_eq!(dx, x);
//! ```

use nalgebra::DMatrix;

use super::linalg::MatrixScalar;

type M = DMatrix<f64>;

/// `x` viewed as `rows × cols`, keeping nalgebra's column-major element
/// order.
///
/// # Panics
///
/// When `rows · cols` differs from the number of elements of `x`, also
/// where `rows · cols` overflows `usize` (nalgebra's own check would
/// compare a wrapped-around product in release builds).
#[inline]
pub fn reshape(x: &M, rows: usize, cols: usize) -> M {
    any_scalar::reshape(x, rows, cols)
}

/// Reshape is linear: its tangent is the input's tangent reshaped the same
/// way; reads nothing but the target shape.
///
/// # Panics
///
/// When `dx` does not have `rows · cols` elements.
#[inline]
pub fn reshape_tangent(dx: &M, rows: usize, cols: usize) -> M {
    any_scalar::reshape_tangent(dx, rows, cols)
}

/// Reshape moves no value, so its adjoint is the incoming adjoint reshaped
/// back to the input's `nrows × ncols`.
///
/// # Panics
///
/// When `grad` does not have `nrows · ncols` elements.
#[inline]
pub fn reshape_grad(grad: &M, nrows: usize, ncols: usize) -> M {
    any_scalar::reshape_grad(grad, nrows, ncols)
}

/// [`reshape_grad`] taking the adjoint by value: its buffer is kept.
///
/// # Panics
///
/// When `grad` does not have `nrows · ncols` elements.
#[inline]
pub fn reshape_grad_owned(grad: M, nrows: usize, ncols: usize) -> M {
    any_scalar::reshape_grad_owned(grad, nrows, ncols)
}

/// acc += `grad` reshaped to `acc`'s shape, in place: element `i` of the
/// column-major order goes to element `i`.
///
/// # Panics
///
/// When `grad` and `acc` differ in their number of elements.
#[inline]
pub fn reshape_grad_acc(acc: &mut M, grad: &M) {
    any_scalar::reshape_grad_acc(acc, grad)
}

/// `xᵀ`.
///
/// An empty matrix is turned without visiting its rows (nalgebra's
/// `transpose` walks every row of a `2³³ × 0` matrix): the time is the
/// element count's.
#[inline]
pub fn transpose<T: MatrixScalar>(x: &DMatrix<T>) -> DMatrix<T> {
    if x.is_empty() {
        DMatrix::from_vec(x.ncols(), x.nrows(), Vec::new())
    } else {
        x.transpose()
    }
}

/// Transpose is linear: its tangent is `ẋᵀ`; reads nothing.
#[inline]
pub fn transpose_tangent<T: MatrixScalar>(dx: &DMatrix<T>) -> DMatrix<T> {
    transpose(dx)
}

/// Transpose is its own inverse, so the adjoint is `gradᵀ`.
#[inline]
pub fn transpose_grad<T: MatrixScalar>(grad: &DMatrix<T>) -> DMatrix<T> {
    transpose(grad)
}

/// acc += gradᵀ, in place, without building the transpose.
///
/// # Panics
///
/// When `acc` is not `grad`'s transposed shape.
#[inline]
pub fn transpose_grad_acc<T: MatrixScalar>(acc: &mut DMatrix<T>, grad: &DMatrix<T>) {
    assert_eq!(
        acc.shape(),
        (grad.ncols(), grad.nrows()),
        "transpose_grad_acc: shapes do not fit"
    );
    if acc.is_empty() {
        return;
    }
    for j in 0..acc.ncols() {
        for i in 0..acc.nrows() {
            acc[(i, j)] += grad[(j, i)];
        }
    }
}

/// The reshape rules for matrices of any [`MatrixScalar`] (`f64` and
/// `Dual<f64>` for second order): the code the `f64` functions above run.
/// An argument's element type must be known, since more than one scalar
/// fits.
pub mod any_scalar {
    use nalgebra::{DMatrix, Dyn};

    use super::MatrixScalar;

    /// `x` viewed as `rows × cols`, keeping nalgebra's column-major element
    /// order.
    ///
    /// # Panics
    ///
    /// When `rows · cols` differs from the number of elements of `x`, also
    /// where `rows · cols` overflows `usize` (nalgebra's own check would
    /// compare a wrapped-around product in release builds).
    #[inline]
    pub fn reshape<T: MatrixScalar>(x: &DMatrix<T>, rows: usize, cols: usize) -> DMatrix<T> {
        reshape_owned(x.clone(), rows, cols)
    }

    /// [`reshape`] taking `x` by value: its buffer is kept.
    fn reshape_owned<T: MatrixScalar>(x: DMatrix<T>, rows: usize, cols: usize) -> DMatrix<T> {
        assert!(
            rows.checked_mul(cols) == Some(x.len()),
            "reshape: a {}×{} matrix cannot be viewed as {rows}×{cols}",
            x.nrows(),
            x.ncols()
        );
        x.reshape_generic(Dyn(rows), Dyn(cols))
    }

    /// Reshape is linear: its tangent is the input's tangent reshaped the same
    /// way; reads nothing but the target shape.
    ///
    /// # Panics
    ///
    /// When `dx` does not have `rows · cols` elements.
    #[inline]
    pub fn reshape_tangent<T: MatrixScalar>(
        dx: &DMatrix<T>,
        rows: usize,
        cols: usize,
    ) -> DMatrix<T> {
        reshape(dx, rows, cols)
    }

    /// Reshape moves no value, so its adjoint is the incoming adjoint reshaped
    /// back to the input's `nrows × ncols`.
    ///
    /// # Panics
    ///
    /// When `grad` does not have `nrows · ncols` elements.
    #[inline]
    pub fn reshape_grad<T: MatrixScalar>(
        grad: &DMatrix<T>,
        nrows: usize,
        ncols: usize,
    ) -> DMatrix<T> {
        reshape(grad, nrows, ncols)
    }

    /// [`reshape_grad`] taking the adjoint by value: its buffer is kept.
    ///
    /// # Panics
    ///
    /// When `grad` does not have `nrows · ncols` elements.
    #[inline]
    pub fn reshape_grad_owned<T: MatrixScalar>(
        grad: DMatrix<T>,
        nrows: usize,
        ncols: usize,
    ) -> DMatrix<T> {
        reshape_owned(grad, nrows, ncols)
    }

    /// acc += `grad` reshaped to `acc`'s shape, in place: element `i` of the
    /// column-major order goes to element `i`.
    ///
    /// # Panics
    ///
    /// When `grad` and `acc` differ in their number of elements.
    #[inline]
    pub fn reshape_grad_acc<T: MatrixScalar>(acc: &mut DMatrix<T>, grad: &DMatrix<T>) {
        assert_eq!(
            acc.len(),
            grad.len(),
            "reshape_grad_acc: element counts differ"
        );
        acc.iter_mut().zip(grad.iter()).for_each(|(a, g)| *a += *g);
    }
}
