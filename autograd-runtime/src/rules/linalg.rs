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
//! `_into` forms write into a buffer the caller owns and the `_acc` forms
//! add into an existing adjoint in place; both take any [`Dense`] storage,
//! so `W·x` with a `DVector` x reads `x` where it lies.
//!
//! # Panics
//!
//! Like nalgebra's own product, these functions panic when the shapes do
//! not fit (`a.ncols() != b.nrows()`, or an adjoint of the wrong shape),
//! and the ones that allocate panic when the result's element count
//! overflows `usize` or its memory cannot be reserved: never a matrix whose
//! storage is smaller than its shape. The registry and the dynamic graph
//! check first and return an error.
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

use core::ops::Mul;

use nalgebra::{
    ClosedAddAssign, ClosedDivAssign, ClosedMulAssign, ClosedSubAssign, DMatrix, DMatrixView,
    DMatrixViewMut, DVector, Dyn, RowDVector, SMatrix,
};

use super::Real;
use crate::dual::Dual;
use crate::value::filled;

type M = DMatrix<f64>;

/// The element type of the matrices the rules take: `f64`, and the dual
/// number `Dual<f64>` that `#[differentiable(hessian)]` runs a matrix
/// function's reverse sweep at (forward over reverse). Every matrix rule is
/// written once, generic over it; at `f64` it is the same code as before.
///
/// Beyond a `Float` (so a [`Real`]) that nalgebra can multiply, it scales matrices from
/// the left (`2.0 * m`), which nalgebra implements for each primitive
/// float and this crate for `Dual`, and it has the determinant's value and
/// cofactors ([`super::determinant::Cofactors`]).
pub trait MatrixScalar:
    num_traits::Float
    + nalgebra::Scalar
    + ClosedAddAssign
    + ClosedSubAssign
    + ClosedMulAssign
    + ClosedDivAssign
    + Mul<DMatrix<Self>, Output = DMatrix<Self>>
    + Mul<DVector<Self>, Output = DVector<Self>>
    + Mul<RowDVector<Self>, Output = RowDVector<Self>>
    + for<'a> Mul<&'a DMatrix<Self>, Output = DMatrix<Self>>
    + for<'a> Mul<&'a DVector<Self>, Output = DVector<Self>>
    + for<'a> Mul<&'a RowDVector<Self>, Output = RowDVector<Self>>
    + super::determinant::Cofactors
{
}

impl MatrixScalar for f64 {}
impl MatrixScalar for Dual<f64> {}

/// A nalgebra value stored densely in column-major order (every storage
/// the rules accept: `DMatrix`, `DVector`, `RowDVector`, the fixed-size
/// `SMatrix` and its `Matrix1`), so the
/// product's adjoints can read and write it as a matrix view of its own
/// elements: a vector operand is never copied into a `DMatrix`.
pub trait Dense {
    /// The element type.
    type Elem: MatrixScalar;
    /// `(nrows, ncols)`.
    fn dims(&self) -> (usize, usize);
    /// The elements, column by column.
    fn elements(&self) -> &[Self::Elem];
    /// The elements, column by column, for writing.
    fn elements_mut(&mut self) -> &mut [Self::Elem];
    /// A zero value of this type with the given shape.
    ///
    /// # Panics
    ///
    /// When the type cannot have that shape (a `DVector` with two columns),
    /// or its element count overflows `usize` or cannot be allocated.
    fn zeros_with_dims(nrows: usize, ncols: usize) -> Self;
}

macro_rules! dense {
    ($([$($g:tt)*] $m:ty => |$r:ident, $c:ident| $zeros:expr;)*) => {$(
        impl<$($g)*> Dense for $m {
            type Elem = T;
            #[inline]
            fn dims(&self) -> (usize, usize) {
                self.shape()
            }
            #[inline]
            fn elements(&self) -> &[T] {
                self.as_slice()
            }
            #[inline]
            fn elements_mut(&mut self) -> &mut [T] {
                self.as_mut_slice()
            }
            #[inline]
            fn zeros_with_dims($r: usize, $c: usize) -> Self {
                $zeros
            }
        }
    )*};
}
dense! {
    [T: MatrixScalar] DMatrix<T> => |r, c| filled("zeros", r, c, <T as Real>::zero());
    [T: MatrixScalar] DVector<T> => |r, c| {
        assert_eq!(c, 1, "a DVector has one column");
        DVector::zeros(r)
    };
    [T: MatrixScalar] RowDVector<T> => |r, c| {
        assert_eq!(r, 1, "a RowDVector has one row");
        RowDVector::zeros(c)
    };
    [T: MatrixScalar, const R: usize, const C: usize] SMatrix<T, R, C> => |r, c| {
        assert_eq!((r, c), (R, C), "a fixed-size matrix has its own shape");
        SMatrix::zeros()
    };
}

/// `m` as a matrix view of its own elements.
#[inline]
fn view<A: Dense>(m: &A) -> DMatrixView<'_, A::Elem> {
    let (r, c) = m.dims();
    DMatrixView::from_slice(m.elements(), r, c)
}

/// `mᵀ` as a view of `m`'s column-major storage: row stride `nrows`,
/// column stride 1, so no element is copied.
///
/// Only ever the *right* factor of `gemm`: nalgebra 0.35's small-matrix
/// `gemv` path walks the left factor's columns as contiguous slices and
/// overruns with a row stride above 1 (it does read the right factor
/// element by element, honouring strides), so `Aᵀ·grad` uses `gemm_tr`.
#[inline]
fn transposed<A: Dense>(m: &A) -> DMatrixView<'_, A::Elem, Dyn, Dyn> {
    let (r, c) = m.dims();
    DMatrixView::from_slice_with_strides(m.elements(), c, r, r, 1)
}

/// out = β·out + L·R for the product's `(rows, inner)` and `(inner, cols)`
/// factor shapes, where an empty operand leaves nothing to multiply:
/// returns whether the caller's `gemm` has work to do.
///
/// nalgebra's views of an empty matrix with a huge other dimension (a
/// `2⁶⁴⁻¹ × 0` factor) overflow computing their extent, and its loops visit
/// every empty column, so an empty operand never reaches them: the product
/// over an inner dimension of 0 is zero, `β·out`.
///
/// # Panics
///
/// When the shapes do not fit.
#[inline]
fn product_fits<A: Dense>(
    out: &mut A,
    left: (usize, usize),
    right: (usize, usize),
    beta: A::Elem,
) -> bool {
    assert!(
        out.dims() == (left.0, right.1) && left.1 == right.0,
        "matrix product: a {}×{} result cannot be a {}×{} times a {}×{} product",
        out.dims().0,
        out.dims().1,
        left.0,
        left.1,
        right.0,
        right.1
    );
    if out.elements().is_empty() {
        return false;
    }
    if left.1 == 0 {
        if beta == <A::Elem as Real>::zero() {
            out.elements_mut().fill(<A::Elem as Real>::zero());
        }
        return false;
    }
    true
}

/// out = β·out + grad·Bᵀ (β = 0: `out` is not read).
#[inline]
fn lhs_gemm<A: Dense, G: Dense<Elem = A::Elem>, B: Dense<Elem = A::Elem>>(
    out: &mut A,
    grad: &G,
    b: &B,
    beta: A::Elem,
) {
    let (b_rows, b_cols) = b.dims();
    if !product_fits(out, grad.dims(), (b_cols, b_rows), beta) {
        return;
    }
    let (r, c) = out.dims();
    let mut out = DMatrixViewMut::from_slice(out.elements_mut(), r, c);
    let (grad_view, b_view) = (view(grad), view(b));
    let one = <A::Elem as Real>::one();
    if grad_view.ncols() == 1 && b_view.ncols() == 1 {
        // A matrix·vector product: grad·bᵀ is an outer product, nalgebra's
        // rank-one update.
        out.ger(one, &grad_view.column(0), &b_view.column(0), beta);
    } else {
        out.gemm(one, &grad_view, &transposed(b), beta);
    }
}

/// out = β·out + Aᵀ·grad (β = 0: `out` is not read).
#[inline]
fn rhs_gemm<B: Dense, G: Dense<Elem = B::Elem>, A: Dense<Elem = B::Elem>>(
    out: &mut B,
    grad: &G,
    a: &A,
    beta: B::Elem,
) {
    let (a_rows, a_cols) = a.dims();
    if !product_fits(out, (a_cols, a_rows), grad.dims(), beta) {
        return;
    }
    let (r, c) = out.dims();
    let mut out = DMatrixViewMut::from_slice(out.elements_mut(), r, c);
    out.gemm_tr(<B::Elem as Real>::one(), &view(a), &view(grad), beta);
}

/// `a·b`, the matrix product (nalgebra's `a * b`).
///
/// # Panics
///
/// When `a.ncols() != b.nrows()`, or the `a.nrows() × b.ncols()` result's
/// element count overflows `usize` (a `2³³ × 0` times `0 × 2³³` product:
/// nalgebra's own `a * b` computes it with wrapping arithmetic in release
/// builds) or cannot be allocated. The registry's `matmul` returns an error
/// instead.
#[inline]
pub fn matmul(a: &M, b: &M) -> M {
    let mut out = filled("matmul", a.nrows(), b.ncols(), 0.0);
    matmul_into(&mut out, a, b);
    out
}

/// out = a·b, overwriting `out` (`a.nrows() × b.ncols()`) in place; any
/// dense storage. The registry allocates `out` fallibly and calls this.
///
/// At `f64`, so `DMatrix::zeros(..)` arguments need no type; the same
/// for any [`MatrixScalar`] is [`any_scalar::matmul_into`].
///
/// # Panics
///
/// When the shapes do not fit `out`.
#[inline]
pub fn matmul_into<C: Dense<Elem = f64>, A: Dense<Elem = f64>, B: Dense<Elem = f64>>(
    out: &mut C,
    a: &A,
    b: &B,
) {
    any_scalar::matmul_into(out, a, b)
}

/// out = β·out + a·b (β = 0: `out` is not read).
#[inline]
fn product_gemm<C: Dense, A: Dense<Elem = C::Elem>, B: Dense<Elem = C::Elem>>(
    out: &mut C,
    a: &A,
    b: &B,
    beta: C::Elem,
) {
    if !product_fits(out, a.dims(), b.dims(), beta) {
        return;
    }
    let (r, c) = out.dims();
    let mut out = DMatrixViewMut::from_slice(out.elements_mut(), r, c);
    out.gemm(<C::Elem as Real>::one(), &view(a), &view(b), beta);
}

/// The product's tangent `Ȧ·B + A·Ḃ`: reads both factors.
///
/// # Panics
///
/// When `a.ncols() != b.nrows()`, a tangent's shape differs from its
/// factor's, or the result cannot be allocated (as [`matmul`]).
#[inline]
pub fn matmul_tangent(da: &M, db: &M, a: &M, b: &M) -> M {
    let mut out = filled("matmul", a.nrows(), b.ncols(), 0.0);
    matmul_tangent_into(&mut out, da, db, a, b);
    out
}

/// out = Ȧ·B + A·Ḃ, overwriting `out` (`a.nrows() × b.ncols()`) in place
/// with two `gemm`s and no temporary; any dense storage.
///
/// At `f64`, so `DMatrix::zeros(..)` arguments need no type; the same
/// for any [`MatrixScalar`] is [`any_scalar::matmul_tangent_into`].
///
/// # Panics
///
/// When the shapes do not fit `out`, or a tangent's shape differs from its
/// factor's.
#[inline]
pub fn matmul_tangent_into<C: Dense<Elem = f64>, A: Dense<Elem = f64>, B: Dense<Elem = f64>>(
    out: &mut C,
    da: &A,
    db: &B,
    a: &A,
    b: &B,
) {
    any_scalar::matmul_tangent_into(out, da, db, a, b)
}

/// ∂L/∂A = grad·Bᵀ: the adjoint of the left factor.
///
/// # Panics
///
/// When `grad` is not `a.nrows() × b.ncols()` for the product's `b`.
#[inline]
pub fn matmul_grad_lhs(grad: &M, b: &M) -> M {
    let mut out = filled("matmul", grad.nrows(), b.nrows(), 0.0);
    matmul_grad_lhs_into(&mut out, grad, b);
    out
}

/// out = grad·Bᵀ, overwriting `out` (the left factor's shape) in place;
/// any dense storage (a vector factor is read as a one-column matrix).
///
/// At `f64`, so `DMatrix::zeros(..)` arguments need no type; the same
/// for any [`MatrixScalar`] is [`any_scalar::matmul_grad_lhs_into`].
///
/// # Panics
///
/// When the shapes do not fit `out`.
#[inline]
pub fn matmul_grad_lhs_into<A: Dense<Elem = f64>, G: Dense<Elem = f64>, B: Dense<Elem = f64>>(
    out: &mut A,
    grad: &G,
    b: &B,
) {
    any_scalar::matmul_grad_lhs_into(out, grad, b)
}

/// acc += grad·Bᵀ, in place; any dense storage.
///
/// At `f64`, so `DMatrix::zeros(..)` arguments need no type; the same
/// for any [`MatrixScalar`] is [`any_scalar::matmul_grad_lhs_acc`].
///
/// # Panics
///
/// When the shapes do not fit `acc` (the left factor's shape).
#[inline]
pub fn matmul_grad_lhs_acc<A: Dense<Elem = f64>, G: Dense<Elem = f64>, B: Dense<Elem = f64>>(
    acc: &mut A,
    grad: &G,
    b: &B,
) {
    any_scalar::matmul_grad_lhs_acc(acc, grad, b)
}

/// ∂L/∂B = Aᵀ·grad: the adjoint of the right factor.
///
/// # Panics
///
/// When `grad` is not `a.nrows() × b.ncols()` for the product's `a`.
#[inline]
pub fn matmul_grad_rhs(grad: &M, a: &M) -> M {
    let mut out = filled("matmul", a.ncols(), grad.ncols(), 0.0);
    matmul_grad_rhs_into(&mut out, grad, a);
    out
}

/// out = Aᵀ·grad, overwriting `out` (the right factor's shape) in place;
/// any dense storage.
///
/// At `f64`, so `DMatrix::zeros(..)` arguments need no type; the same
/// for any [`MatrixScalar`] is [`any_scalar::matmul_grad_rhs_into`].
///
/// # Panics
///
/// When the shapes do not fit `out`.
#[inline]
pub fn matmul_grad_rhs_into<B: Dense<Elem = f64>, G: Dense<Elem = f64>, A: Dense<Elem = f64>>(
    out: &mut B,
    grad: &G,
    a: &A,
) {
    any_scalar::matmul_grad_rhs_into(out, grad, a)
}

/// acc += Aᵀ·grad, in place; any dense storage.
///
/// At `f64`, so `DMatrix::zeros(..)` arguments need no type; the same
/// for any [`MatrixScalar`] is [`any_scalar::matmul_grad_rhs_acc`].
///
/// # Panics
///
/// When the shapes do not fit `acc` (the right factor's shape).
#[inline]
pub fn matmul_grad_rhs_acc<B: Dense<Elem = f64>, G: Dense<Elem = f64>, A: Dense<Elem = f64>>(
    acc: &mut B,
    grad: &G,
    a: &A,
) {
    any_scalar::matmul_grad_rhs_acc(acc, grad, a)
}

/// The product's `_into` and `_acc` forms for matrices of any
/// [`MatrixScalar`] (`f64` and `Dual<f64>`): the code the `f64` forms
/// above run. An argument's element type must be known (`DMatrix::<f64>::zeros`),
/// since more than one scalar fits.
pub mod any_scalar {
    use super::{Dense, Real, lhs_gemm, product_gemm, rhs_gemm};

    /// out = a·b, overwriting `out` (`a.nrows() × b.ncols()`) in place; any
    /// dense storage. The registry allocates `out` fallibly and calls this.
    ///
    /// # Panics
    ///
    /// When the shapes do not fit `out`.
    #[inline]
    pub fn matmul_into<C: Dense, A: Dense<Elem = C::Elem>, B: Dense<Elem = C::Elem>>(
        out: &mut C,
        a: &A,
        b: &B,
    ) {
        product_gemm(out, a, b, <C::Elem as Real>::zero());
    }

    /// out = Ȧ·B + A·Ḃ, overwriting `out` (`a.nrows() × b.ncols()`) in place
    /// with two `gemm`s and no temporary; any dense storage.
    ///
    /// # Panics
    ///
    /// When the shapes do not fit `out`, or a tangent's shape differs from its
    /// factor's.
    #[inline]
    pub fn matmul_tangent_into<C: Dense, A: Dense<Elem = C::Elem>, B: Dense<Elem = C::Elem>>(
        out: &mut C,
        da: &A,
        db: &B,
        a: &A,
        b: &B,
    ) {
        assert!(
            da.dims() == a.dims() && db.dims() == b.dims(),
            "matmul_tangent: a tangent's shape differs from its factor's"
        );
        product_gemm(out, da, b, <C::Elem as Real>::zero());
        product_gemm(out, a, db, <C::Elem as Real>::one());
    }

    /// out = grad·Bᵀ, overwriting `out` (the left factor's shape) in place;
    /// any dense storage (a vector factor is read as a one-column matrix).
    ///
    /// # Panics
    ///
    /// When the shapes do not fit `out`.
    #[inline]
    pub fn matmul_grad_lhs_into<A: Dense, G: Dense<Elem = A::Elem>, B: Dense<Elem = A::Elem>>(
        out: &mut A,
        grad: &G,
        b: &B,
    ) {
        lhs_gemm(out, grad, b, <A::Elem as Real>::zero());
    }

    /// acc += grad·Bᵀ, in place; any dense storage.
    ///
    /// # Panics
    ///
    /// When the shapes do not fit `acc` (the left factor's shape).
    #[inline]
    pub fn matmul_grad_lhs_acc<A: Dense, G: Dense<Elem = A::Elem>, B: Dense<Elem = A::Elem>>(
        acc: &mut A,
        grad: &G,
        b: &B,
    ) {
        lhs_gemm(acc, grad, b, <A::Elem as Real>::one());
    }

    /// out = Aᵀ·grad, overwriting `out` (the right factor's shape) in place;
    /// any dense storage.
    ///
    /// # Panics
    ///
    /// When the shapes do not fit `out`.
    #[inline]
    pub fn matmul_grad_rhs_into<B: Dense, G: Dense<Elem = B::Elem>, A: Dense<Elem = B::Elem>>(
        out: &mut B,
        grad: &G,
        a: &A,
    ) {
        rhs_gemm(out, grad, a, <B::Elem as Real>::zero());
    }

    /// acc += Aᵀ·grad, in place; any dense storage.
    ///
    /// # Panics
    ///
    /// When the shapes do not fit `acc` (the right factor's shape).
    #[inline]
    pub fn matmul_grad_rhs_acc<B: Dense, G: Dense<Elem = B::Elem>, A: Dense<Elem = B::Elem>>(
        acc: &mut B,
        grad: &G,
        a: &A,
    ) {
        rhs_gemm(acc, grad, a, <B::Elem as Real>::one());
    }
}
