//! The matrix product and its two adjoints.
//!
//! Derivation (the seed's index form): `Y[i,j] = Σ_k A[i,k]·B[k,j]`, so
//! `∂L/∂A[i,k] = Σ_j ∂L/∂Y[i,j]·B[k,j] = (∂L/∂Y·Bᵀ)[i,k]` and symmetrically
//! `∂L/∂B = Aᵀ·∂L/∂Y`.
//!
//! The adjoints never build a transposed copy. `Aᵀ·grad` is nalgebra's
//! `gemm_tr` (dot products of `A`'s columns with `grad`'s). `grad·Bᵀ` hands
//! `gemm` a strided view of `B`'s own column-major storage as `Bᵀ`; `gemm`
//! passes strides through to its blocked kernel for large matrices. The
//! `_acc` forms add into an existing adjoint in place.
//!
//! # Panics
//!
//! Like nalgebra's own product, these functions panic when the shapes do
//! not fit (`a.ncols() != b.nrows()`, or an adjoint of the wrong shape).
//! The registry and the dynamic graph check first and return an error.
//!
//! # Example
//!
//! ```
//! use autograd_runtime::rules::linalg;
//! use nalgebra::DMatrix;
//!
//! let x = DMatrix::from_row_slice(2, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
//! let m = DMatrix::from_row_slice(3, 2, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
//! let ones = DMatrix::repeat(2, 2, 1.0);
//! let dx = linalg::matmul_grad_lhs(&ones, &m);
//! assert_eq!(dx, DMatrix::from_row_slice(2, 3, &[3.0, 7.0, 11.0, 3.0, 7.0, 11.0]));
//! ```

use nalgebra::{DMatrix, DMatrixView, Dyn};

type M = DMatrix<f64>;

/// `mᵀ` as a view of `m`'s column-major storage: row stride `nrows`,
/// column stride 1, so no element is copied.
///
/// Only ever the *right* factor of `gemm`: nalgebra 0.35's small-matrix
/// `gemv` path walks the left factor's columns as contiguous slices and
/// overruns with a row stride above 1 (it does read the right factor
/// element by element, honouring strides), so `Aᵀ·grad` uses `gemm_tr`.
#[inline]
fn transposed(m: &M) -> DMatrixView<'_, f64, Dyn, Dyn> {
    DMatrixView::from_slice_with_strides(m.as_slice(), m.ncols(), m.nrows(), m.nrows(), 1)
}

/// `a·b`, the matrix product (nalgebra's `a * b`).
///
/// # Panics
///
/// When `a.ncols() != b.nrows()`.
#[inline]
pub fn matmul(a: &M, b: &M) -> M {
    a * b
}

/// ∂L/∂A = grad·Bᵀ: the adjoint of the left factor.
///
/// # Panics
///
/// When `grad` is not `a.nrows() × b.ncols()` for the product's `b`.
#[inline]
pub fn matmul_grad_lhs(grad: &M, b: &M) -> M {
    let mut acc = M::zeros(grad.nrows(), b.nrows());
    acc.gemm(1.0, grad, &transposed(b), 0.0);
    acc
}

/// acc += grad·Bᵀ, in place.
///
/// # Panics
///
/// When the shapes do not fit `acc` (the left factor's shape).
#[inline]
pub fn matmul_grad_lhs_acc(acc: &mut M, grad: &M, b: &M) {
    acc.gemm(1.0, grad, &transposed(b), 1.0);
}

/// ∂L/∂B = Aᵀ·grad: the adjoint of the right factor.
///
/// # Panics
///
/// When `grad` is not `a.nrows() × b.ncols()` for the product's `a`.
#[inline]
pub fn matmul_grad_rhs(grad: &M, a: &M) -> M {
    a.tr_mul(grad)
}

/// acc += Aᵀ·grad, in place.
///
/// # Panics
///
/// When the shapes do not fit `acc` (the right factor's shape).
#[inline]
pub fn matmul_grad_rhs_acc(acc: &mut M, grad: &M, a: &M) {
    acc.gemm_tr(1.0, a, grad, 1.0);
}
