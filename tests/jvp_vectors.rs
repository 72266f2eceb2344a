//! `_jvp` through the nalgebra vector operations (dot, norm, norm_squared,
//! column, indexing), against central differences of the primal
//! (h = 1e-6, relative tolerance 1e-7).

use autograd::differentiable;
use nalgebra::{DMatrix, DVector};

#[differentiable(jvp)]
fn vector_mix(a: &DVector<f64>, m: &DMatrix<f64>) -> f64 {
    let c = m.column(1).dot(a);
    let r = m.row(0).transpose().dot(a);
    c * a.norm() + a.norm_squared() - r + a[0] * m[(0, 1)]
}

#[test]
fn vector_operations_have_their_directional_derivatives() {
    let a = DVector::from_vec(vec![0.3, -1.2, 0.8]);
    let m = DMatrix::from_fn(3, 3, |i, j| (i as f64 + 1.0) * 0.4 - j as f64 * 0.7);
    let da = DVector::from_vec(vec![0.5, 0.25, -1.0]);
    let dm = DMatrix::from_fn(3, 3, |i, j| ((i * 3 + j) as f64).sin());
    let (value, tangent) = vector_mix_jvp(&a, &m, &da, &dm);
    assert_eq!(value.to_bits(), vector_mix(&a, &m).to_bits());
    let h = 1e-6;
    let plus = vector_mix(&(&a + &da * h), &(&m + &dm * h));
    let minus = vector_mix(&(&a - &da * h), &(&m - &dm * h));
    let expected = (plus - minus) / (2.0 * h);
    assert!(
        (tangent - expected).abs() <= 1e-7 * expected.abs().max(1.0),
        "{tangent} vs {expected}"
    );
}
