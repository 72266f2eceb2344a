//! `m.determinant()` of nalgebra matrices of every size: the closed forms
//! up to 3 × 3 and the pivoted LU beyond, as nalgebra computes them.
//!
//! Expected: the value is nalgebra's bit for bit in every generated item;
//! the gradient is the closed form det(A) · A⁻ᵀ (1e-10 relative to the
//! largest entry, with the inverse from nalgebra) and central differences
//! of the plain function (step 1e-6, tolerance 1e-6 relative); at every
//! rank, the cofactors and signed minors from the Laplace expansion below.

mod fd_support;

use autograd::differentiable;
use nalgebra::{DMatrix, Matrix2, Matrix3};

#[differentiable(jvp, hessian)]
fn det2(a: Matrix2<f64>) -> f64 {
    a.determinant()
}

#[differentiable]
fn det3_log(f: &Matrix3<f64>, mu: f64) -> f64 {
    let c = f.transpose() * f;
    let j = f.determinant();
    0.5 * mu * (c.trace() - 3.0) - mu * j.ln()
}

#[differentiable(jvp, hessian)]
fn det3(a: Matrix3<f64>) -> f64 {
    a.determinant()
}

#[differentiable(jvp, hessian)]
fn det_dynamic(a: &DMatrix<f64>) -> f64 {
    a.determinant()
}

/// det(A) · A⁻ᵀ, the closed-form gradient of the determinant.
fn cofactors(a: &DMatrix<f64>) -> DMatrix<f64> {
    let inv = a.clone().try_inverse().expect("invertible");
    inv.transpose() * a.determinant()
}

fn assert_matrix_close(what: &str, got: &DMatrix<f64>, want: &DMatrix<f64>, rel: f64) {
    let scale = want.amax().max(1.0);
    for (g, w) in got.iter().zip(want.iter()) {
        assert!((g - w).abs() <= rel * scale, "{what}: {got} vs {want}");
    }
}

fn matrix(n: usize, seed: u64) -> DMatrix<f64> {
    let mut state = seed;
    DMatrix::from_fn(n, n, |_, _| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 11) as f64 / (1u64 << 53) as f64) * 4.0 - 2.0
    })
}

#[test]
fn every_size_has_nalgebras_value_and_the_cofactor_gradient() {
    for n in 1..=6 {
        for seed in 0..4 {
            let a = matrix(n, seed + 17 * n as u64);
            let (v, da) = det_dynamic_grad(&a);
            assert_eq!(v.to_bits(), a.determinant().to_bits(), "{n}×{n}");
            assert_matrix_close(&format!("{n}×{n} closed form"), &da, &cofactors(&a), 1e-10);
            let fd = fd_support::central_slice(
                |p| det_dynamic(&DMatrix::from_column_slice(n, n, p)),
                a.as_slice(),
                1e-6,
            );
            let fd = DMatrix::from_column_slice(n, n, &fd);
            assert_matrix_close(&format!("{n}×{n} central differences"), &da, &fd, 1e-6);
        }
    }
}

#[test]
fn a_pivot_of_zero_and_a_singular_matrix() {
    // The first column's pivot is row 2; the matrix is singular (row 3 =
    // row 1 + row 2), so the gradient is the adjugate's transpose.
    let a = DMatrix::from_row_slice(
        4,
        4,
        &[
            0.0, 1.0, 2.0, 0.5, 3.0, -1.0, 0.0, 1.0, 3.0, 0.0, 2.0, 1.5, 1.0, 1.0, 1.0, 1.0,
        ],
    );
    let (v, da) = det_dynamic_grad(&a);
    assert_eq!(v.to_bits(), a.determinant().to_bits());
    let fd = fd_support::central_slice(
        |p| det_dynamic(&DMatrix::from_column_slice(4, 4, p)),
        a.as_slice(),
        1e-6,
    );
    assert_matrix_close(
        "singular",
        &da,
        &DMatrix::from_column_slice(4, 4, &fd),
        1e-6,
    );
    // The empty matrix: 1, nothing to differentiate.
    let (v, da) = det_dynamic_grad(&DMatrix::zeros(0, 0));
    assert_eq!((v, da.len()), (1.0, 0));
}

#[test]
fn fixed_sizes_in_every_mode() {
    let a = Matrix2::new(1.5, -0.4, 0.7, 2.0);
    let (v, da) = det2_grad(a);
    assert_eq!(v.to_bits(), a.determinant().to_bits());
    // ∂det/∂A = [[a22, −a21], [−a12, a11]].
    assert_eq!(da, Matrix2::new(2.0, -0.7, 0.4, 1.5));
    let (_, tangent) = det2_jvp(a, &Matrix2::new(1.0, 0.0, 0.0, 1.0));
    assert_eq!(tangent, 1.5 + 2.0);
    // Over the column-major entries a11, a21, a12, a22: det = a11 a22 − a21 a12.
    let (_, _, h) = det2_hessian(a);
    let want = [
        [0.0, 0.0, 0.0, 1.0],
        [0.0, 0.0, -1.0, 0.0],
        [0.0, -1.0, 0.0, 0.0],
        [1.0, 0.0, 0.0, 0.0],
    ];
    for i in 0..4 {
        for j in 0..4 {
            assert_eq!(h[(i, j)], want[i][j], "h[{i},{j}]");
        }
    }
    let f = Matrix3::new(1.1, 0.05, -0.02, 0.1, 0.95, 0.03, 0.0, -0.04, 1.02);
    let (v, df, dmu) = det3_log_grad(&f, 1.5);
    assert_eq!(v, det3_log(&f, 1.5));
    // μ (F − F⁻ᵀ) and ½ (tr FᵀF − 3) − ln det F.
    let inv_t = f.try_inverse().expect("invertible").transpose();
    let want = (f - inv_t) * 1.5;
    for (g, w) in df.iter().zip(want.iter()) {
        assert!((g - w).abs() < 1e-12, "{df} vs {want}");
    }
    let want_mu = 0.5 * ((f.transpose() * f).trace() - 3.0) - f.determinant().ln();
    assert!((dmu - want_mu).abs() < 1e-12);
}

// ---- Issue 35, "Silently wrong today" item 4: the derivatives of det at
// every rank. At a zero pivot column the LU's diagonal product dropped
// the cofactors of that column (a 4 × 4 matrix with a zero first column
// got (−5.276, 0, 0, 0) for the cofactors (−5.276, 1.335, 4.23, −7.88)).
//
// Expected values come from minors, by the Laplace expansion below (exact
// on the integer matrices), never from the code under test: ∂det/∂a_ij is
// the cofactor (−1)^(i+j)·det(A without row i, column j), and
// ∂²det/∂a_ij∂a_kl the signed minor of order n − 2. Tolerances: 1e-10
// absolute or relative for first derivatives (entries of magnitude ≤ 4,
// cofactors below 10⁴: the LU's rounding is ~10⁻¹³), the same for the
// Hessian's entries; central differences of the plain function with step
// 1e-3 (det is affine in each entry, so the difference is exact up to
// rounding, ~10⁻¹¹), 1e-8.

/// det(A) by Laplace expansion along the first row, 1 for the empty
/// matrix.
fn laplace(a: &DMatrix<f64>) -> f64 {
    let n = a.nrows();
    if n == 0 {
        return 1.0;
    }
    (0..n)
        .map(|j| {
            let sign = if j % 2 == 0 { 1.0 } else { -1.0 };
            sign * a[(0, j)] * laplace(&a.clone().remove_row(0).remove_column(j))
        })
        .sum()
}

/// The cofactor matrix: (−1)^(i+j)·det(A without row i, column j).
fn cofactors_by_minors(a: &DMatrix<f64>) -> DMatrix<f64> {
    let n = a.nrows();
    DMatrix::from_fn(n, n, |i, j| {
        let sign = if (i + j) % 2 == 0 { 1.0 } else { -1.0 };
        sign * laplace(&a.clone().remove_row(i).remove_column(j))
    })
}

/// ∂²det/∂a_ij∂a_kl: the cofactor of a_kl in the minor of a_ij, signed as
/// the cofactor of a_ij; 0 when the two share a row or a column.
fn second_derivative(a: &DMatrix<f64>, (i, j): (usize, usize), (k, l): (usize, usize)) -> f64 {
    if i == k || j == l {
        return 0.0;
    }
    let minor = a.clone().remove_row(i).remove_column(j);
    let (k, l) = (k - usize::from(k > i), l - usize::from(l > j));
    let sign = if (i + j + k + l) % 2 == 0 { 1.0 } else { -1.0 };
    sign * laplace(&minor.remove_row(k).remove_column(l))
}

/// Small integers from a seed: entries of `{-1, 0, 1}`.
fn unit_integers(rows: usize, cols: usize, seed: u64) -> DMatrix<f64> {
    let mut state = seed;
    DMatrix::from_fn(rows, cols, |_, _| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) % 3) as f64 - 1.0
    })
}

/// The matrices of size n the derivatives are checked at, named.
fn cases(n: usize) -> Vec<(String, DMatrix<f64>)> {
    let mut out = Vec::new();
    for seed in 0..3 {
        out.push((
            format!("random {seed}"),
            matrix(n, 100 + seed + 7 * n as u64),
        ));
    }
    let a = matrix(n, 31 + n as u64);
    let mut zero_first_column = a.clone();
    zero_first_column.column_mut(0).fill(0.0);
    out.push(("zero first column".into(), zero_first_column));
    let mut zero_middle_column = a.clone();
    zero_middle_column.column_mut(n / 2).fill(0.0);
    out.push(("zero middle column".into(), zero_middle_column));
    let mut zero_row = a.clone();
    zero_row.row_mut(n / 2).fill(0.0);
    out.push(("zero row".into(), zero_row));
    if n >= 2 {
        let mut duplicated = a.clone();
        let first = duplicated.row(0).into_owned();
        duplicated.row_mut(n - 1).copy_from(&first);
        out.push(("duplicated rows".into(), duplicated));
        // Rank n − 2 exactly: a product of integer factors (the zero
        // matrix at n = 2).
        let rank = unit_integers(n, n - 2, 7 + n as u64) * unit_integers(n - 2, n, 11 + n as u64);
        out.push(("rank n - 2".into(), rank));
        // Tied pivots: every entry of the first column has magnitude 1.5.
        let mut tied = a.clone();
        for i in 0..n {
            tied[(i, 0)] = if i % 2 == 0 { 1.5 } else { -1.5 };
        }
        out.push(("tied pivots".into(), tied));
    }
    out
}

/// A 4 × 4 singular integer matrix whose first column is nonzero, with
/// tied pivots, whose second column is zero below the first row after one
/// elimination step: a zero pivot column no column of A shows.
fn zero_after_elimination() -> DMatrix<f64> {
    DMatrix::from_row_slice(
        4,
        4,
        &[
            1.0, 2.0, 0.0, 1.0, //
            -1.0, -2.0, 3.0, 0.0, //
            1.0, 2.0, 1.0, 1.0, //
            1.0, 2.0, 2.0, 5.0,
        ],
    )
}

fn assert_all_close(what: &str, got: &DMatrix<f64>, want: &DMatrix<f64>, tol: f64) {
    assert_eq!(got.shape(), want.shape(), "{what}");
    for (g, w) in got.iter().zip(want.iter()) {
        assert!(
            approx::relative_eq!(*g, *w, epsilon = tol, max_relative = tol),
            "{what}: {got} against {want}"
        );
    }
}

#[test]
fn the_gradient_is_the_cofactor_matrix_at_every_rank() {
    let mut all = Vec::new();
    for n in 1..=6 {
        all.extend(cases(n));
    }
    all.push((
        "zero pivot after elimination".into(),
        zero_after_elimination(),
    ));
    for (name, a) in &all {
        let n = a.nrows();
        let what = format!("{n}×{n} {name}");
        let (v, da) = det_dynamic_grad(a);
        assert_eq!(v.to_bits(), a.determinant().to_bits(), "{what}: value");
        let want = cofactors_by_minors(a);
        assert_all_close(&what, &da, &want, 1e-10);
        let fd = fd_support::central_slice(
            |p| det_dynamic(&DMatrix::from_column_slice(n, n, p)),
            a.as_slice(),
            1e-3,
        );
        assert_all_close(&what, &da, &DMatrix::from_column_slice(n, n, &fd), 1e-8);
        // The pullback at another seed scales the cofactors.
        let (v, pullback) = det_dynamic_vjp(a);
        assert_eq!(v.to_bits(), a.determinant().to_bits(), "{what}: vjp value");
        let (scaled,) = pullback(-2.5);
        assert_all_close(&what, &scaled, &(&want * -2.5), 1e-10);
    }
}

#[test]
fn the_issues_zero_first_column_gets_every_cofactor() {
    let mut a = matrix(4, 35);
    a.column_mut(0).fill(0.0);
    let (_, da) = det_dynamic_grad(&a);
    let want = cofactors_by_minors(&a);
    // Not only the first row's: every entry of the zero column moves det.
    assert!(want.column(0).iter().all(|c| c.abs() > 1e-3), "{want}");
    assert_all_close("zero first column", &da, &want, 1e-10);
}

#[test]
fn the_tangent_is_the_cofactors_against_the_direction() {
    for n in 1..=6 {
        let dir = matrix(n, 900 + n as u64);
        for (name, a) in cases(n) {
            let (v, t) = det_dynamic_jvp(&a, &dir);
            assert_eq!(v.to_bits(), a.determinant().to_bits(), "{n}×{n} {name}");
            let want = cofactors_by_minors(&a).dot(&dir);
            assert!(
                approx::relative_eq!(t, want, epsilon = 1e-10, max_relative = 1e-10),
                "{n}×{n} {name}: {t} against ⟨cof, dA⟩ = {want}"
            );
        }
    }
}

/// Every entry of `h` (over the column-major entries) against the signed
/// minors of order n − 2.
fn assert_hessian_is_the_minors(what: &str, a: &DMatrix<f64>, h: &DMatrix<f64>) {
    let n = a.nrows();
    assert_eq!(h.shape(), (n * n, n * n), "{what}");
    for p in 0..n * n {
        for q in 0..n * n {
            let want = second_derivative(a, (p % n, p / n), (q % n, q / n));
            let got = h[(p, q)];
            assert!(
                (got - want).abs() <= 1e-10 * want.abs().max(1.0),
                "{what}: h[{p},{q}] = {got}, the minor is {want}"
            );
        }
    }
}

#[test]
fn the_hessian_is_the_signed_minors_at_singular_points() {
    // Fixed sizes: a singular 2 × 2 and a rank-one 3 × 3 (gradient zero,
    // Hessian not).
    let a = Matrix2::new(2.0, -1.0, -4.0, 2.0);
    let (v, g, h) = det2_hessian(a);
    assert_eq!(v.to_bits(), a.determinant().to_bits());
    let dynamic = DMatrix::from_column_slice(2, 2, a.as_slice());
    assert_eq!(g.as_slice(), cofactors_by_minors(&dynamic).as_slice());
    assert_hessian_is_the_minors("2×2 singular", &dynamic, &h);
    let a = Matrix3::new(1.0, -2.0, 0.5, -2.0, 4.0, -1.0, 3.0, -6.0, 1.5);
    let (v, g, h) = det3_hessian(a);
    assert_eq!(v.to_bits(), a.determinant().to_bits());
    let dynamic = DMatrix::from_column_slice(3, 3, a.as_slice());
    assert_eq!(g.as_slice(), cofactors_by_minors(&dynamic).as_slice());
    assert_hessian_is_the_minors("3×3 rank one", &dynamic, &h);
    let (v, t) = det3_jvp(
        a,
        &Matrix3::new(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0),
    );
    assert_eq!((v.to_bits(), t), (a.determinant().to_bits(), 0.0));
    // Dynamic: a zero first column, a zero pivot after elimination, rank
    // n − 2 and a random matrix, 1 × 1 to 5 × 5.
    let mut zero_column = matrix(4, 35);
    zero_column.column_mut(0).fill(0.0);
    let mut points = vec![
        ("4×4 zero first column".to_string(), zero_column),
        (
            "4×4 zero pivot after elimination".into(),
            zero_after_elimination(),
        ),
    ];
    for n in 1..=5 {
        for (name, a) in cases(n) {
            if name == "random 0" || name == "rank n - 2" || name == "zero middle column" {
                points.push((format!("{n}×{n} {name}"), a));
            }
        }
    }
    for (what, a) in &points {
        let (v, g, h) = det_dynamic_hessian(a);
        assert_eq!(v.to_bits(), a.determinant().to_bits(), "{what}");
        let n = a.nrows();
        let cof = cofactors_by_minors(a);
        assert_all_close(
            what,
            &DMatrix::from_column_slice(n, n, g.as_slice()),
            &cof,
            1e-10,
        );
        assert_hessian_is_the_minors(what, a, &h);
    }
}
