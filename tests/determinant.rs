//! `m.determinant()` of nalgebra matrices of every size: the closed forms
//! up to 3 × 3 and the pivoted LU beyond, as nalgebra computes them.
//!
//! Expected: the value is nalgebra's bit for bit; the gradient is the
//! closed form det(A) · A⁻ᵀ (1e-10 relative to the largest entry, with
//! the inverse from nalgebra) and central differences of the plain
//! function (step 1e-6, tolerance 1e-6 relative).

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

#[differentiable]
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
