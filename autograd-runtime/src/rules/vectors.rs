//! Vector algebra on nalgebra values: `a.dot(&b)`, `a.cross(&b)`, `v.norm()`,
//! `v.norm_squared()`, and the columns and rows `m.column(j)`, `m.row(i)`.
//!
//! Each adjoint is a scalar rule applied element by element, so no formula
//! is written twice: `dot` is a sum of products (`mul_grad_lhs`/`_rhs` per
//! element), `norm_squared` a sum of `x·x`, and `norm`'s partial `x_i/|x|`
//! is the partial of `hypot`, with its convention: **at the zero vector the
//! gradient of `norm` is 0** (the least-norm subgradient, as `x.hypot(y)`
//! at (0, 0): a cone's tip has no adjacent smooth piece), and so are its
//! tangent and, in second order, its Hessian; an infinite element gives
//! NaN for itself and 0 for the others. A column or row moves values without changing them, so its
//! adjoint goes back to the column or row it was read from, and its
//! tangent is the tangent's column or row.
//!
//! Every function takes any [`Dense`] storage: `DMatrix<f64>`,
//! `DVector<f64>`, `RowDVector<f64>`, and the fixed-size `SMatrix<f64, R,
//! C>` (`Vector3<f64>`, `Matrix3<f64>`, ...). `norm` of a matrix is the
//! Frobenius norm, as in nalgebra.
//!
//! # Example
//!
//! ```
//! use autograd_runtime::rules::vectors;
//! use nalgebra::DVector;
//!
//! let x = DVector::from_vec(vec![3.0, 4.0]);
//! let n = x.norm();
//! let mut dx = DVector::zeros(2);
//! vectors::norm_grad_acc(&mut dx, 1.0, &x, n);
//! assert_eq!(dx, DVector::from_vec(vec![0.6, 0.8])); // x/|x|
//! ```
//!
//! # Panics
//!
//! The `_acc` functions panic when the adjoint's element count differs
//! from the value's (`dot`: from the other operand's), as nalgebra's own
//! `dot` does for operands of different shapes.

use super::linalg::{Dense, MatrixScalar};
use crate::rules as s;

fn same_len(what: &str, adjoint: usize, value: usize) {
    assert_eq!(
        adjoint, value,
        "{what}: an adjoint of {adjoint} elements for a value of {value}"
    );
}

/// `acc_i += mul_grad_lhs(grad, b_i)`: d(a·b)/da = b.
#[inline]
pub fn dot_grad_lhs_acc<A: Dense, B: Dense<Elem = A::Elem>>(acc: &mut A, grad: A::Elem, b: &B) {
    same_len("dot", acc.elements().len(), b.elements().len());
    let pairs = acc.elements_mut().iter_mut().zip(b.elements());
    pairs.for_each(|(a, b)| *a += s::mul_grad_lhs(grad, *b));
}

/// `acc_i += mul_grad_rhs(grad, a_i)`: d(a·b)/db = a.
#[inline]
pub fn dot_grad_rhs_acc<A: Dense, B: Dense<Elem = A::Elem>>(acc: &mut B, grad: A::Elem, a: &A) {
    same_len("dot", acc.elements().len(), a.elements().len());
    let pairs = acc.elements_mut().iter_mut().zip(a.elements());
    pairs.for_each(|(b, a)| *b += s::mul_grad_rhs(grad, *a));
}

/// The tangent of `a·b`: `ȧ·b + a·ḃ`, the two pullbacks at seeds `ȧ_i`,
/// `ḃ_i` summed over the elements.
#[inline]
pub fn dot_tangent<A: Dense, B: Dense<Elem = A::Elem>>(da: &A, db: &B, a: &A, b: &B) -> A::Elem {
    let lhs = da.elements().iter().zip(b.elements());
    let rhs = db.elements().iter().zip(a.elements());
    sum(lhs.map(|(d, b)| s::mul_grad_lhs(*d, *b))) + sum(rhs.map(|(d, a)| s::mul_grad_rhs(*d, *a)))
}

/// `iter.sum()`, as `f64`'s `Sum` adds (from −0), for any element type.
#[inline(always)]
fn sum<T: MatrixScalar>(iter: impl Iterator<Item = T>) -> T {
    iter.fold(<T as num_traits::Float>::neg_zero(), |acc, x| acc + x)
}

/// `acc_i += grad·x_i/|x|` (`hypot`'s partial): reads `x` and the norm;
/// 0 at the zero vector.
#[inline]
pub fn norm_grad_acc<A: Dense>(acc: &mut A, grad: A::Elem, x: &A, out: A::Elem) {
    same_len("norm", acc.elements().len(), x.elements().len());
    let pairs = acc.elements_mut().iter_mut().zip(x.elements());
    pairs.for_each(|(a, x)| *a += s::hypot_grad_lhs(grad, *x, out));
}

/// The tangent of `|x|`: `x·ẋ/|x|`, 0 at the zero vector.
#[inline]
pub fn norm_tangent<A: Dense>(dx: &A, x: &A, out: A::Elem) -> A::Elem {
    let pairs = dx.elements().iter().zip(x.elements());
    sum(pairs.map(|(d, x)| s::hypot_grad_lhs(*d, *x, out)))
}

/// `acc_i += 2·grad·x_i`: `|x|² = Σ x_i·x_i`, each product's two
/// pullbacks.
#[inline]
pub fn norm_squared_grad_acc<A: Dense>(acc: &mut A, grad: A::Elem, x: &A) {
    same_len("norm_squared", acc.elements().len(), x.elements().len());
    let pairs = acc.elements_mut().iter_mut().zip(x.elements());
    pairs.for_each(|(a, x)| *a += square_grad(grad, *x));
}

/// The tangent of `|x|²`: `2·x·ẋ`.
#[inline]
pub fn norm_squared_tangent<A: Dense>(dx: &A, x: &A) -> A::Elem {
    let pairs = dx.elements().iter().zip(x.elements());
    sum(pairs.map(|(d, x)| square_grad(*d, *x)))
}

/// d(x·x) at adjoint `grad`: the product rule's two pullbacks.
#[inline(always)]
fn square_grad<T: MatrixScalar>(grad: T, x: T) -> T {
    s::mul_grad_lhs(grad, x) + s::mul_grad_rhs(grad, x)
}

/// Adds the adjoint of `m.column(j)` (or of `m.row(i)`, `column == false`)
/// into `acc`, of `m`'s shape: the incoming adjoint goes back to the
/// elements it was read from.
///
/// # Panics
///
/// When `index` is outside `acc`, or `grad` is not as long as the column
/// (row), as `m.column(j)` itself panics.
#[inline]
pub fn line_grad_acc<M: Dense, V: Dense<Elem = M::Elem>>(
    acc: &mut M,
    grad: &V,
    index: usize,
    column: bool,
) {
    let (rows, cols) = acc.dims();
    let (count, len) = if column { (cols, rows) } else { (rows, cols) };
    assert!(index < count, "index {index} of a {rows}×{cols} matrix");
    same_len("column or row", grad.elements().len(), len);
    let elements = acc.elements_mut();
    for (k, g) in grad.elements().iter().enumerate() {
        // Column-major: element (r, c) lies at c·rows + r.
        let at = if column {
            index * rows + k
        } else {
            k * rows + index
        };
        elements[at] += s::add_grad_lhs(*g);
    }
}

/// `a × b` of two 3-vectors' elements. The product is bilinear, so its
/// pullbacks and its tangent are products too: the one formula.
///
/// # Panics
///
/// When an operand does not have three elements, as nalgebra's `cross`.
#[inline]
fn cross3<T: MatrixScalar>(a: &[T], b: &[T]) -> [T; 3] {
    assert!(
        a.len() == 3 && b.len() == 3,
        "cross: operands of {} and {} elements, not 3",
        a.len(),
        b.len()
    );
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// `acc += b × grad`: `(a×b)·g = a·(b×g)`, so d/da = b × g.
#[inline]
pub fn cross_grad_lhs_acc<A: Dense, B: Dense<Elem = A::Elem>, G: Dense<Elem = A::Elem>>(
    acc: &mut A,
    grad: &G,
    b: &B,
) {
    same_len("cross", acc.elements().len(), 3);
    let d = cross3(b.elements(), grad.elements());
    acc.elements_mut()
        .iter_mut()
        .zip(d)
        .for_each(|(a, d)| *a += d);
}

/// `acc += grad × a`: `(a×b)·g = b·(g×a)`, so d/db = g × a.
#[inline]
pub fn cross_grad_rhs_acc<A: Dense, B: Dense<Elem = A::Elem>, G: Dense<Elem = A::Elem>>(
    acc: &mut B,
    grad: &G,
    a: &A,
) {
    same_len("cross", acc.elements().len(), 3);
    let d = cross3(grad.elements(), a.elements());
    acc.elements_mut()
        .iter_mut()
        .zip(d)
        .for_each(|(b, d)| *b += d);
}

/// The tangent of `a × b`: `ȧ × b + a × ḃ`, of `a`'s type.
#[inline]
pub fn cross_tangent<A: Dense, B: Dense<Elem = A::Elem>>(da: &A, db: &B, a: &A, b: &B) -> A {
    let (l, r) = (
        cross3(da.elements(), b.elements()),
        cross3(a.elements(), db.elements()),
    );
    let (rows, cols) = a.dims();
    let mut out = A::zeros_with_dims(rows, cols);
    let sums = l.iter().zip(r).map(|(l, r)| *l + r);
    out.elements_mut()
        .iter_mut()
        .zip(sums)
        .for_each(|(o, v)| *o = v);
    out
}

/// The pullbacks dispatched by type, in the forms the generated code calls
/// (`rules::generic` re-exports them): a new adjoint, added in place, or
/// from the output adjoint by value.
pub mod dispatch {
    use super::*;

    /// A zero adjoint of `x`'s shape.
    fn zeros<A: Dense>(x: &A) -> A {
        let (r, c) = x.dims();
        A::zeros_with_dims(r, c)
    }

    /// The adjoint of `a` in `a.dot(&b)`.
    #[inline]
    pub fn dot_grad_lhs<A: Dense, B: Dense<Elem = A::Elem>>(grad: &A::Elem, a: &A, b: &B) -> A {
        let mut da = zeros(a);
        super::dot_grad_lhs_acc(&mut da, *grad, b);
        da
    }
    /// Adds the adjoint of `a` in `a.dot(&b)` into `acc`.
    #[inline]
    pub fn dot_grad_lhs_acc<A: Dense, B: Dense<Elem = A::Elem>>(
        acc: &mut A,
        grad: &A::Elem,
        _a: &A,
        b: &B,
    ) {
        super::dot_grad_lhs_acc(acc, *grad, b);
    }
    /// The adjoint of `a` in `a.dot(&b)`, the output adjoint by value.
    #[inline]
    pub fn dot_grad_lhs_owned<A: Dense, B: Dense<Elem = A::Elem>>(
        grad: A::Elem,
        a: &A,
        b: &B,
    ) -> A {
        dot_grad_lhs(&grad, a, b)
    }
    /// The adjoint of `b` in `a.dot(&b)`.
    #[inline]
    pub fn dot_grad_rhs<A: Dense, B: Dense<Elem = A::Elem>>(grad: &A::Elem, a: &A, b: &B) -> B {
        let mut db = zeros(b);
        super::dot_grad_rhs_acc(&mut db, *grad, a);
        db
    }
    /// Adds the adjoint of `b` in `a.dot(&b)` into `acc`.
    #[inline]
    pub fn dot_grad_rhs_acc<A: Dense, B: Dense<Elem = A::Elem>>(
        acc: &mut B,
        grad: &A::Elem,
        a: &A,
        _b: &B,
    ) {
        super::dot_grad_rhs_acc(acc, *grad, a);
    }
    /// The adjoint of `b` in `a.dot(&b)`, the output adjoint by value.
    #[inline]
    pub fn dot_grad_rhs_owned<A: Dense, B: Dense<Elem = A::Elem>>(
        grad: A::Elem,
        a: &A,
        b: &B,
    ) -> B {
        dot_grad_rhs(&grad, a, b)
    }
    /// The tangent of `a.dot(&b)`.
    #[inline]
    pub fn dot_tangent<A: Dense, B: Dense<Elem = A::Elem>>(
        da: &A,
        db: &B,
        a: &A,
        b: &B,
    ) -> A::Elem {
        super::dot_tangent(da, db, a, b)
    }

    /// The adjoint of `a` in `a.cross(&b)`.
    #[inline]
    pub fn cross_grad_lhs<A: Dense, B: Dense<Elem = A::Elem>, G: Dense<Elem = A::Elem>>(
        grad: &G,
        a: &A,
        b: &B,
    ) -> A {
        let mut da = zeros(a);
        super::cross_grad_lhs_acc(&mut da, grad, b);
        da
    }
    /// Adds the adjoint of `a` in `a.cross(&b)` into `acc`.
    #[inline]
    pub fn cross_grad_lhs_acc<A: Dense, B: Dense<Elem = A::Elem>, G: Dense<Elem = A::Elem>>(
        acc: &mut A,
        grad: &G,
        _a: &A,
        b: &B,
    ) {
        super::cross_grad_lhs_acc(acc, grad, b);
    }
    /// The adjoint of `a` in `a.cross(&b)`, the output adjoint by value.
    #[inline]
    pub fn cross_grad_lhs_owned<A: Dense, B: Dense<Elem = A::Elem>, G: Dense<Elem = A::Elem>>(
        grad: G,
        a: &A,
        b: &B,
    ) -> A {
        cross_grad_lhs(&grad, a, b)
    }
    /// The adjoint of `b` in `a.cross(&b)`.
    #[inline]
    pub fn cross_grad_rhs<A: Dense, B: Dense<Elem = A::Elem>, G: Dense<Elem = A::Elem>>(
        grad: &G,
        a: &A,
        b: &B,
    ) -> B {
        let mut db = zeros(b);
        super::cross_grad_rhs_acc(&mut db, grad, a);
        db
    }
    /// Adds the adjoint of `b` in `a.cross(&b)` into `acc`.
    #[inline]
    pub fn cross_grad_rhs_acc<A: Dense, B: Dense<Elem = A::Elem>, G: Dense<Elem = A::Elem>>(
        acc: &mut B,
        grad: &G,
        a: &A,
        _b: &B,
    ) {
        super::cross_grad_rhs_acc(acc, grad, a);
    }
    /// The adjoint of `b` in `a.cross(&b)`, the output adjoint by value.
    #[inline]
    pub fn cross_grad_rhs_owned<A: Dense, B: Dense<Elem = A::Elem>, G: Dense<Elem = A::Elem>>(
        grad: G,
        a: &A,
        b: &B,
    ) -> B {
        cross_grad_rhs(&grad, a, b)
    }
    /// The tangent of `a.cross(&b)`.
    #[inline]
    pub fn cross_tangent<A: Dense, B: Dense<Elem = A::Elem>>(da: &A, db: &B, a: &A, b: &B) -> A {
        super::cross_tangent(da, db, a, b)
    }

    /// The adjoint of `x` in `x.norm()`.
    #[inline]
    pub fn norm_grad<A: Dense>(grad: &A::Elem, x: &A, out: &A::Elem) -> A {
        let mut dx = zeros(x);
        super::norm_grad_acc(&mut dx, *grad, x, *out);
        dx
    }
    /// Adds the adjoint of `x` in `x.norm()` into `acc`.
    #[inline]
    pub fn norm_grad_acc<A: Dense>(acc: &mut A, grad: &A::Elem, x: &A, out: &A::Elem) {
        super::norm_grad_acc(acc, *grad, x, *out);
    }
    /// The adjoint of `x` in `x.norm()`, the output adjoint by value.
    #[inline]
    pub fn norm_grad_owned<A: Dense>(grad: A::Elem, x: &A, out: &A::Elem) -> A {
        norm_grad(&grad, x, out)
    }
    /// The tangent of `x.norm()`.
    #[inline]
    pub fn norm_tangent<A: Dense>(dx: &A, x: &A, out: &A::Elem) -> A::Elem {
        super::norm_tangent(dx, x, *out)
    }

    /// The adjoint of `x` in `x.norm_squared()`.
    #[inline]
    pub fn norm_squared_grad<A: Dense>(grad: &A::Elem, x: &A) -> A {
        let mut dx = zeros(x);
        super::norm_squared_grad_acc(&mut dx, *grad, x);
        dx
    }
    /// Adds the adjoint of `x` in `x.norm_squared()` into `acc`.
    #[inline]
    pub fn norm_squared_grad_acc<A: Dense>(acc: &mut A, grad: &A::Elem, x: &A) {
        super::norm_squared_grad_acc(acc, *grad, x);
    }
    /// The adjoint of `x` in `x.norm_squared()`, the output adjoint by value.
    #[inline]
    pub fn norm_squared_grad_owned<A: Dense>(grad: A::Elem, x: &A) -> A {
        norm_squared_grad(&grad, x)
    }
    /// The tangent of `x.norm_squared()`.
    #[inline]
    pub fn norm_squared_tangent<A: Dense>(dx: &A, x: &A) -> A::Elem {
        super::norm_squared_tangent(dx, x)
    }

    macro_rules! line {
        ($column:literal, $grad:ident, $acc:ident, $owned:ident, $what:literal) => {
            #[doc = concat!("The adjoint of `m` in `m.", $what, "(index)`.")]
            #[inline]
            pub fn $grad<M: Dense, V: Dense<Elem = M::Elem>>(grad: &V, m: &M, index: &usize) -> M {
                let mut dm = zeros(m);
                super::line_grad_acc(&mut dm, grad, *index, $column);
                dm
            }
            #[doc = concat!("Adds the adjoint of `m` in `m.", $what, "(index)` into `acc`.")]
            #[inline]
            pub fn $acc<M: Dense, V: Dense<Elem = M::Elem>>(acc: &mut M, grad: &V, _m: &M, index: &usize) {
                super::line_grad_acc(acc, grad, *index, $column);
            }
            #[doc = concat!("The adjoint of `m` in `m.", $what, "(index)`, the output adjoint by value.")]
            #[inline]
            pub fn $owned<M: Dense, V: Dense<Elem = M::Elem>>(grad: V, m: &M, index: &usize) -> M {
                $grad(&grad, m, index)
            }
        };
    }
    line!(
        true,
        column_grad,
        column_grad_acc,
        column_grad_owned,
        "column"
    );
    line!(false, row_grad, row_grad_acc, row_grad_owned, "row");
}

#[cfg(test)]
mod tests {
    use super::dispatch::*;
    use nalgebra::{DMatrix, DVector, RowDVector};

    /// Five-point central difference of `f` at `x` along element `i`.
    fn fd(f: impl Fn(&DVector<f64>) -> f64, x: &DVector<f64>, i: usize) -> f64 {
        let h = 1e-3 * x[i].abs().max(1.0);
        let at = |k: f64| {
            let mut y = x.clone();
            y[i] += k * h;
            f(&y)
        };
        (8.0 * (at(1.0) - at(-1.0)) - (at(2.0) - at(-2.0))) / (12.0 * h)
    }

    const POINTS: &[[f64; 3]] = &[[3.0, 4.0, 0.0], [-1.5, 0.25, 2.0], [1e-3, -7.0, 0.5]];

    #[test]
    fn dot_norm_and_norm_squared_match_closed_forms_and_differences() {
        for p in POINTS {
            let x = DVector::from_row_slice(p);
            let y = DVector::from_vec(vec![0.5, -2.0, 1.25]);
            let n = x.norm();
            assert_eq!(dot_grad_lhs(&1.0, &x, &y), y, "d(x·y)/dx = y");
            assert_eq!(dot_grad_rhs(&1.0, &x, &y), x, "d(x·y)/dy = x");
            let dn: DVector<f64> = norm_grad(&1.0, &x, &n);
            let dsq: DVector<f64> = norm_squared_grad(&1.0, &x);
            for i in 0..3 {
                assert!((dn[i] - x[i] / n).abs() < 1e-15, "x/|x| at {p:?}");
                assert_eq!(dsq[i], 2.0 * x[i], "2x at {p:?}");
                assert!((dn[i] - fd(|v| v.norm(), &x, i)).abs() < 1e-9);
                assert!((dsq[i] - fd(|v| v.norm_squared(), &x, i)).abs() < 1e-8);
                let ddot = fd(|v| v.dot(&y), &x, i);
                assert!((dot_grad_lhs(&1.0, &x, &y)[i] - ddot).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn the_norm_of_the_zero_vector_has_gradient_zero() {
        let z = DVector::<f64>::zeros(3);
        let dz: DVector<f64> = norm_grad(&2.5, &z, &0.0);
        assert_eq!(dz, DVector::zeros(3));
        assert_eq!(norm_tangent(&DVector::from_element(3, 1.0), &z, &0.0), 0.0);
    }

    #[test]
    fn an_infinite_element_takes_the_nan_and_the_others_zero() {
        let x = DVector::from_vec(vec![f64::INFINITY, 1.0]);
        let dx: DVector<f64> = norm_grad(&1.0, &x, &x.norm());
        assert!(dx[0].is_nan());
        assert_eq!(dx[1], 0.0);
    }

    #[test]
    fn columns_and_rows_send_their_adjoint_back() {
        let m = DMatrix::from_row_slice(2, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let g = DVector::from_vec(vec![10.0, 20.0]);
        let dm = column_grad(&g, &m, &2);
        let expected = DMatrix::from_row_slice(2, 3, &[0.0, 0.0, 10.0, 0.0, 0.0, 20.0]);
        assert_eq!(dm, expected);
        let r = RowDVector::from_vec(vec![1.0, 2.0, 3.0]);
        let dm = row_grad(&r, &m, &1);
        let expected = DMatrix::from_row_slice(2, 3, &[0.0, 0.0, 0.0, 1.0, 2.0, 3.0]);
        assert_eq!(dm, expected);
    }

    /// ⟨J·v, u⟩ = ⟨v, Jᵀ·u⟩ for each tangent against its pullbacks.
    #[test]
    fn tangents_are_the_transposes_of_the_pullbacks() {
        let x = DVector::from_vec(vec![0.3, -1.2, 2.0]);
        let y = DVector::from_vec(vec![1.5, 0.5, -0.75]);
        let (vx, vy) = (
            DVector::from_vec(vec![0.1, 0.2, -0.3]),
            DVector::from_vec(vec![-1.0, 0.4, 0.6]),
        );
        let u = 1.7;
        let n = x.norm();
        let close = |a: f64, b: f64| assert!((a - b).abs() < 1e-14, "{a} vs {b}");
        let jv = dot_tangent(&vx, &vy, &x, &y);
        let jtu = dot_grad_lhs(&u, &x, &y).dot(&vx) + dot_grad_rhs(&u, &x, &y).dot(&vy);
        close(jv * u, jtu);
        close(
            norm_tangent(&vx, &x, &n) * u,
            norm_grad(&u, &x, &n).dot(&vx),
        );
        close(
            norm_squared_tangent(&vx, &x) * u,
            norm_squared_grad(&u, &x).dot(&vx),
        );
        // A column is linear: its tangent is the tangent's column.
        let m = DMatrix::from_row_slice(3, 2, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let dm = DMatrix::from_row_slice(3, 2, &[0.5, -1.0, 2.0, 0.25, -0.5, 1.0]);
        close(dm.column(1).dot(&y), column_grad(&y, &m, &1).dot(&dm));
    }
}
