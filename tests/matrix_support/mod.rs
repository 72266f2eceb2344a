//! Reference derivatives for the matrix integration tests
//! (`tests/matrix_*.rs`): five-point central differences of the primal,
//! written here rather than taken from the runtime, so no expected value
//! comes from the code under test.
//!
//! Stencil: `(8(f(x+h) - f(x-h)) - (f(x+2h) - f(x-2h))) / 12h` with
//! `h = 10⁻³·max(1, |x|)`; truncation error `h⁴·|f⁽⁵⁾|/30` ≈ 3·10⁻¹⁴, rounding
//! ≈ 1.5·ε·|f|/h ≈ 3·10⁻¹³·|f|. The tests allow [`FD_ABS`] absolute or
//! [`FD_REL`] relative error against it.
#![allow(dead_code)]

use nalgebra::{DMatrix, DVector};

/// Absolute tolerance of an adjoint against a five-point difference.
pub const FD_ABS: f64 = 1e-8;
/// Relative tolerance of an adjoint against a five-point difference.
pub const FD_REL: f64 = 1e-7;

/// Five-point central difference of `f` at `x`.
pub fn fd(mut f: impl FnMut(f64) -> f64, x: f64) -> f64 {
    let h = 1e-3 * x.abs().max(1.0);
    let d1 = f(x + h) - f(x - h);
    let d2 = f(x + 2.0 * h) - f(x - 2.0 * h);
    (8.0 * d1 - d2) / (12.0 * h)
}

/// The gradient of a scalar function of a matrix, one entry at a time.
pub fn fd_matrix(f: impl Fn(&DMatrix<f64>) -> f64, x: &DMatrix<f64>) -> DMatrix<f64> {
    let mut work = x.clone();
    DMatrix::from_fn(x.nrows(), x.ncols(), |i, j| {
        let d = fd(
            |t| {
                work[(i, j)] = t;
                f(&work)
            },
            x[(i, j)],
        );
        work[(i, j)] = x[(i, j)];
        d
    })
}

/// The gradient of a scalar function of a vector, one element at a time.
pub fn fd_vector(f: impl Fn(&DVector<f64>) -> f64, x: &DVector<f64>) -> DVector<f64> {
    let mut work = x.clone();
    DVector::from_fn(x.len(), |i, _| {
        let d = fd(
            |t| {
                work[i] = t;
                f(&work)
            },
            x[i],
        );
        work[i] = x[i];
        d
    })
}

/// The directional derivative `d/dt g(t)` at `t = 0` of a matrix-valued
/// curve (the caller builds `g(t) = f(x + t·v)`): `J·v` by a five-point
/// difference with `h = 10⁻³`, entry by entry.
pub fn fd_curve(g: impl Fn(f64) -> DMatrix<f64>) -> DMatrix<f64> {
    let h = 1e-3;
    let d1 = g(h) - g(-h);
    let d2 = g(2.0 * h) - g(-2.0 * h);
    (d1 * 8.0 - d2) / (12.0 * h)
}

/// The Frobenius inner product `⟨a, b⟩ = Σ aᵢⱼ bᵢⱼ`.
pub fn inner(a: &DMatrix<f64>, b: &DMatrix<f64>) -> f64 {
    assert_eq!(a.shape(), b.shape(), "inner product of different shapes");
    a.component_mul(b).sum()
}

/// A deterministic "random" matrix with entries uniform in `[lo, hi)`
/// (an LCG; no RNG dependency).
pub fn lcg_matrix(nrows: usize, ncols: usize, seed: u64, lo: f64, hi: f64) -> DMatrix<f64> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    DMatrix::from_fn(nrows, ncols, |_, _| {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let u = (s >> 11) as f64 / (1u64 << 53) as f64;
        lo + (hi - lo) * u
    })
}

/// A deterministic "random" vector, as [`lcg_matrix`].
pub fn lcg_vector(n: usize, seed: u64, lo: f64, hi: f64) -> DVector<f64> {
    DVector::from_column_slice(lcg_matrix(n, 1, seed, lo, hi).as_slice())
}

/// Entry-wise `|g - e| <= abs + rel · max(|g|, |e|)` with matching shapes,
/// naming the first failing entry.
pub fn assert_close(got: &DMatrix<f64>, expected: &DMatrix<f64>, abs: f64, rel: f64, what: &str) {
    assert_eq!(got.shape(), expected.shape(), "{what}: shape");
    for j in 0..got.ncols() {
        for i in 0..got.nrows() {
            let (g, e) = (got[(i, j)], expected[(i, j)]);
            let tol = abs + rel * g.abs().max(e.abs());
            assert!(
                (g - e).abs() <= tol,
                "{what} ({i}, {j}): got {g}, expected {e} (|diff| = {:e}, tol = {tol:e})",
                (g - e).abs()
            );
        }
    }
}

/// [`assert_close`] for vectors.
pub fn assert_close_vec(
    got: &DVector<f64>,
    expected: &DVector<f64>,
    abs: f64,
    rel: f64,
    what: &str,
) {
    assert_close(
        &DMatrix::from_column_slice(got.len(), 1, got.as_slice()),
        &DMatrix::from_column_slice(expected.len(), 1, expected.as_slice()),
        abs,
        rel,
        what,
    );
}
