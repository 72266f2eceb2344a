//! The determinant of a square nalgebra matrix, `m.determinant()`, and its
//! derivatives at every rank.
//!
//! The value is nalgebra's `determinant()` bit for bit: the closed forms up
//! to 3 × 3, then the LU decomposition with partial pivoting, which skips a
//! column that is zero at and below the diagonal. That branch is on an
//! exact zero, so the derivative is never taken through nalgebra's
//! algorithm (it would lose the cofactors of such a column). It is the
//! cofactor matrix, `∂det/∂a_ij = (−1)^(i+j)·det(A without row i and
//! column j)`, which exists everywhere, singular matrices included:
//!
//! - up to 3 × 3, the cofactors' closed forms (polynomials, no branch);
//! - beyond, from `P·A = L·U` with partial pivoting, `adj(A) =
//!   det(P)·adj(U)·L⁻¹·P` (the adjugate is multiplicative), where `adj(U)`
//!   of the triangular factor is computed without a division: products of
//!   `U`'s diagonal stand where back substitution divides by it. A zero
//!   pivot anywhere gives the right cofactors: of rank n − 1 a rank-one
//!   cofactor matrix, of rank n − 2 or less zero. The only divisions are
//!   the LU's own, by nonzero pivots, so the result is as accurate as the
//!   factorisation (backward stable), near singular matrices too.
//!
//! The tangent is `⟨cof(A), Ȧ⟩`. Second order (`Dual<f64>` elements:
//! `#[differentiable(hessian)]` runs the reverse sweep forward over
//! reverse) differentiates the cofactors by that same tangent, one size
//! down: `cof_ij` is `±det` of a minor, so its tangent along `V` is
//! `(−1)^(i+j)·⟨cof(A_ij), V_ij⟩`, with `A_ij`, `V_ij` the matrices without
//! row i and column j, and `∂²det/∂a_ij∂a_kl` is the signed minor of order
//! n − 2, at every rank. That costs n² cofactor matrices of order n − 1,
//! O(n⁵) per direction.
//!
//! # Example
//!
//! ```
//! use autograd_runtime::rules::generic;
//! use nalgebra::Matrix2;
//!
//! // A singular matrix: the gradient is still the cofactor matrix.
//! let a = Matrix2::new(1.0, 2.0, 2.0, 4.0);
//! assert_eq!(generic::determinant(&a), 0.0);
//! let da: Matrix2<f64> = generic::determinant_grad(&1.0, &a);
//! assert_eq!(da, Matrix2::new(4.0, -2.0, -2.0, 1.0));
//! ```
//!
//! # Panics
//!
//! When the matrix is not square, as nalgebra's `determinant()`, or an
//! adjoint or tangent has another element count than the matrix.

use nalgebra::DMatrixView;

use super::linalg::Dense;
use crate::dual::Dual;

/// The element types the determinant's rules take (`f64`, and the dual
/// number of second order): the value as nalgebra computes it and the
/// cofactor matrix, both of column-major elements of an `n × n` matrix.
pub trait Cofactors: Copy {
    /// `det(A)`, as nalgebra's `determinant()` computes it.
    fn determinant(a: &[Self], n: usize) -> Self;
    /// The cofactor matrix of `A`, column-major: `∂det/∂a_ij`.
    fn cofactors(a: &[Self], n: usize) -> Vec<Self>;
}

impl Cofactors for f64 {
    fn determinant(a: &[f64], n: usize) -> f64 {
        DMatrixView::from_slice(a, n, n).determinant()
    }

    fn cofactors(a: &[f64], n: usize) -> Vec<f64> {
        let at = |i: usize, j: usize| a[i + j * n];
        match n {
            0 => Vec::new(),
            1 => vec![1.0],
            2 => vec![at(1, 1), -at(0, 1), -at(1, 0), at(0, 0)],
            // The cyclic form carries the sign: rows and columns i + 1,
            // i + 2 (mod 3) in order.
            3 => (0..9)
                .map(|k| {
                    let (i, j) = (k % 3, k / 3);
                    let (i1, i2, j1, j2) = ((i + 1) % 3, (i + 2) % 3, (j + 1) % 3, (j + 2) % 3);
                    at(i1, j1) * at(i2, j2) - at(i1, j2) * at(i2, j1)
                })
                .collect(),
            _ => cofactors_by_lu(a, n),
        }
    }
}

/// The cofactor matrix from `P·A = L·U`: `adj(A) = det(P)·adj(U)·L⁻¹·P`,
/// transposed. See the module's documentation.
fn cofactors_by_lu(a: &[f64], n: usize) -> Vec<f64> {
    let at = |i: usize, j: usize| i + j * n;
    let mut lu = a.to_vec();
    // Row i of the factors is row `rows[i]` of A.
    let mut rows: Vec<usize> = (0..n).collect();
    let mut odd = false;
    for i in 0..n {
        let mut pivot_row = i;
        let mut largest = lu[at(i, i)].abs();
        for r in i + 1..n {
            let magnitude = lu[at(r, i)].abs();
            if magnitude > largest {
                largest = magnitude;
                pivot_row = r;
            }
        }
        if largest == 0.0 {
            // Nothing to eliminate: L's column is zero, U's pivot 0.
            continue;
        }
        if pivot_row != i {
            for c in 0..n {
                lu.swap(at(i, c), at(pivot_row, c));
            }
            rows.swap(i, pivot_row);
            odd = !odd;
        }
        let pivot = lu[at(i, i)];
        for r in i + 1..n {
            lu[at(r, i)] /= pivot;
        }
        for c in i + 1..n {
            let u = lu[at(i, c)];
            for r in i + 1..n {
                lu[at(r, c)] -= lu[at(r, i)] * u;
            }
        }
    }
    // adj(U)_ij = Π_{m<i} u_mm · z_ij · Π_{m>j} u_mm for i ≤ j, where z_ij
    // is U⁻¹_ij times Π_{m=i..=j} u_mm: z_jj = 1 and
    // z_ij = −Σ_{k=i+1..=j} u_ik · Π_{m=i+1..k−1} u_mm · z_kj.
    let diagonal: Vec<f64> = (0..n).map(|i| lu[at(i, i)]).collect();
    let mut before = vec![1.0; n + 1];
    let mut after = vec![1.0; n + 1];
    for i in 0..n {
        before[i + 1] = before[i] * diagonal[i];
        after[n - 1 - i] = after[n - i] * diagonal[n - 1 - i];
    }
    let mut adj = vec![0.0; n * n];
    let mut z = vec![0.0; n];
    for j in 0..n {
        z[j] = 1.0;
        for i in (0..j).rev() {
            let (mut sum, mut between) = (0.0, 1.0);
            for k in i + 1..=j {
                sum += lu[at(i, k)] * between * z[k];
                between *= diagonal[k];
            }
            z[i] = -sum;
        }
        for i in 0..=j {
            adj[at(i, j)] = before[i] * z[i] * after[j + 1];
        }
    }
    // adj(U)·L⁻¹ in place: B·L = adj(U), solved from the last column
    // (L is unit lower triangular: no division).
    for j in (0..n).rev() {
        for k in j + 1..n {
            let l = lu[at(k, j)];
            if l != 0.0 {
                for r in 0..n {
                    adj[at(r, j)] -= adj[at(r, k)] * l;
                }
            }
        }
    }
    // adj(A) = det(P)·B·P: column rows[i] of adj(A) is column i of B; the
    // cofactors are its transpose.
    let mut cofactors = vec![0.0; n * n];
    for i in 0..n {
        for r in 0..n {
            let b = adj[at(r, i)];
            cofactors[at(rows[i], r)] = if odd { -b } else { b };
        }
    }
    cofactors
}

/// `Σ cof_k·ȧ_k`: the tangent of `det` at the cofactors `cof`, summed from
/// −0 as `f64`'s `Sum` does.
fn inner<T: Copy + num_traits::Float>(cofactors: &[T], tangent: impl Iterator<Item = T>) -> T {
    let pairs = cofactors.iter().zip(tangent);
    pairs.fold(T::neg_zero(), |acc, (c, t)| acc + *c * t)
}

/// The column-major elements of `a` without row `i` and column `j`.
fn minor<T: Copy>(a: &[T], n: usize, i: usize, j: usize) -> Vec<T> {
    let mut out = Vec::with_capacity((n - 1) * (n - 1));
    for c in (0..n).filter(|c| *c != j) {
        out.extend((0..n).filter(|r| *r != i).map(|r| a[r + c * n]));
    }
    out
}

impl Cofactors for Dual<f64> {
    /// The value nalgebra's at the real parts; the tangent `⟨cof, ε⟩`.
    fn determinant(a: &[Self], n: usize) -> Self {
        let re: Vec<f64> = a.iter().map(|x| x.re).collect();
        let tangent = inner(&f64::cofactors(&re, n), a.iter().map(|x| x.eps));
        Dual::new(f64::determinant(&re, n), tangent)
    }

    /// The cofactors at the real parts; the tangent of each, `±det` of a
    /// minor, is that minor's determinant tangent.
    fn cofactors(a: &[Self], n: usize) -> Vec<Self> {
        let re: Vec<f64> = a.iter().map(|x| x.re).collect();
        let eps: Vec<f64> = a.iter().map(|x| x.eps).collect();
        let values = f64::cofactors(&re, n);
        if eps.iter().all(|e| *e == 0.0) {
            return values.into_iter().map(Dual::constant).collect();
        }
        (0..n * n)
            .map(|k| {
                let (i, j) = (k % n, k / n);
                let minor_cofactors = f64::cofactors(&minor(&re, n, i, j), n - 1);
                let tangent = inner(&minor_cofactors, minor(&eps, n, i, j).into_iter());
                let tangent = if (i + j) % 2 == 0 { tangent } else { -tangent };
                Dual::new(values[k], tangent)
            })
            .collect()
    }
}

/// The order of a square matrix.
///
/// # Panics
///
/// When `a` is not square, with nalgebra's message.
fn order<A: Dense>(a: &A) -> usize {
    let (rows, cols) = a.dims();
    assert!(
        rows == cols,
        "Unable to compute the determinant of a non-square matrix."
    );
    rows
}

/// The rules by type, in the forms the generated code calls
/// (`rules::generic` re-exports them).
pub mod dispatch {
    use super::*;

    /// `m.determinant()` for any [`MatrixScalar`](super::super::linalg::MatrixScalar) element: nalgebra's needs
    /// a complex field, which `Dual<f64>` is not. At `f64` (and in a dual
    /// number's real part) it is nalgebra's value bit for bit.
    #[inline]
    pub fn determinant<A: Dense>(m: &A) -> A::Elem {
        Cofactors::determinant(m.elements(), order(m))
    }

    /// Adds `grad·cof(a)`, the adjoint of `a` in `a.determinant()`, into
    /// `acc`.
    #[inline]
    pub fn determinant_grad_acc<A: Dense>(acc: &mut A, grad: &A::Elem, a: &A) {
        let cofactors = Cofactors::cofactors(a.elements(), order(a));
        assert_eq!(
            acc.elements().len(),
            cofactors.len(),
            "determinant: an adjoint of another shape than the matrix"
        );
        let pairs = acc.elements_mut().iter_mut().zip(cofactors);
        pairs.for_each(|(d, c)| *d += *grad * c);
    }

    /// The adjoint of `a` in `a.determinant()`: `grad·cof(a)`.
    #[inline]
    pub fn determinant_grad<A: Dense>(grad: &A::Elem, a: &A) -> A {
        let (rows, cols) = a.dims();
        let mut da = A::zeros_with_dims(rows, cols);
        determinant_grad_acc(&mut da, grad, a);
        da
    }

    /// The adjoint of `a` in `a.determinant()`, the output adjoint by
    /// value.
    #[inline]
    pub fn determinant_grad_owned<A: Dense>(grad: A::Elem, a: &A) -> A {
        determinant_grad(&grad, a)
    }

    /// The tangent of `a.determinant()`: `⟨cof(a), ȧ⟩`.
    #[inline]
    pub fn determinant_tangent<A: Dense>(da: &A, a: &A) -> A::Elem {
        let cofactors = Cofactors::cofactors(a.elements(), order(a));
        assert_eq!(
            da.elements().len(),
            cofactors.len(),
            "determinant: a tangent of another shape than the matrix"
        );
        inner(&cofactors, da.elements().iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::dispatch::*;
    use super::*;
    use nalgebra::DMatrix;

    /// det by Laplace expansion along the first row.
    fn laplace(a: &DMatrix<f64>) -> f64 {
        if a.nrows() == 0 {
            return 1.0;
        }
        (0..a.ncols())
            .map(|j| {
                let sign = if j % 2 == 0 { 1.0 } else { -1.0 };
                sign * a[(0, j)] * laplace(&a.clone().remove_row(0).remove_column(j))
            })
            .sum()
    }

    fn by_minors(a: &DMatrix<f64>) -> DMatrix<f64> {
        let n = a.nrows();
        DMatrix::from_fn(n, n, |i, j| {
            let sign = if (i + j) % 2 == 0 { 1.0 } else { -1.0 };
            sign * laplace(&a.clone().remove_row(i).remove_column(j))
        })
    }

    fn random(n: usize, seed: u64) -> DMatrix<f64> {
        let mut state = seed;
        DMatrix::from_fn(n, n, |_, _| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 11) as f64 / (1u64 << 53) as f64) * 4.0 - 2.0
        })
    }

    fn close(what: &str, got: &DMatrix<f64>, want: &DMatrix<f64>) {
        for (g, w) in got.iter().zip(want.iter()) {
            assert!(
                (g - w).abs() <= 1e-11 * w.abs().max(1.0),
                "{what}: {got} vs {want}"
            );
        }
    }

    #[test]
    fn the_cofactors_are_the_minors_at_every_rank() {
        for n in 0..=7 {
            let mut singular = random(n, 3 + n as u64);
            if n > 1 {
                singular.column_mut(0).fill(0.0);
                let first = singular.row(1).into_owned();
                singular.row_mut(n - 1).copy_from(&first);
            }
            for a in [random(n, n as u64), singular] {
                let got: DMatrix<f64> = determinant_grad(&1.0, &a);
                close(&format!("{n}×{n}"), &got, &by_minors(&a));
                assert_eq!(determinant(&a).to_bits(), a.determinant().to_bits());
            }
        }
        // Two zero columns: rank n − 2, no first derivative.
        let mut a = random(5, 9);
        a.column_mut(1).fill(0.0);
        a.column_mut(3).fill(0.0);
        let got: DMatrix<f64> = determinant_grad(&1.0, &a);
        assert!(got.iter().all(|c| *c == 0.0), "{got}");
    }

    /// The tangent against the pullback (⟨J·v, u⟩ = ⟨v, Jᵀ·u⟩), and the
    /// dual cofactors' tangents against central differences of the `f64`
    /// ones, at matrices with a zero column.
    #[test]
    fn tangents_match_pullbacks_and_differences() {
        for n in 1..=6 {
            let (mut a, v) = (random(n, 40 + n as u64), random(n, 50 + n as u64));
            a.column_mut(n / 2).fill(0.0);
            let u = 1.75;
            let g: DMatrix<f64> = determinant_grad(&u, &a);
            let unit: DMatrix<f64> = determinant_grad(&1.0, &a);
            let t = determinant_tangent(&v, &a);
            assert!((t * u - g.dot(&v)).abs() < 1e-12);
            let dual = a.zip_map(&v, Dual::new);
            assert_eq!(determinant(&dual).re.to_bits(), a.determinant().to_bits());
            assert_eq!(determinant(&dual).eps, t);
            let cofactors = Dual::cofactors(dual.as_slice(), n);
            let h = 1e-5;
            let up = Cofactors::cofactors((&a + &v * h).as_slice(), n);
            let down = Cofactors::cofactors((&a - &v * h).as_slice(), n);
            for k in 0..n * n {
                let fd = (up[k] - down[k]) / (2.0 * h);
                // Cofactors are polynomials of degree n − 1 along v: the
                // central difference errs by h²/6 times the third
                // derivative (~10⁻⁸ here), rounding by ~10⁻⁹.
                let err = (cofactors[k].eps - fd).abs();
                assert!(
                    err < 1e-6 * fd.abs().max(1.0),
                    "{n}×{n} [{k}]: {} vs {fd}",
                    cofactors[k].eps
                );
                assert_eq!(cofactors[k].re, unit[k]);
            }
        }
    }
}
