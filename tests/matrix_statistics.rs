//! `m.mean()`, `m.trace()` and `m.min()` of nalgebra values in a `#[differentiable]`
//! body (issue 14): written with the sum, the length and element reads, as
//! nalgebra computes them, so values are nalgebra's bit for bit. Expected
//! derivatives are closed forms, exact in these small binary fractions.

use autograd::differentiable;
use nalgebra::{DMatrix, DVector};

/// ‖A‖² as trace(AᵀA), plus 2·trace(A).
#[differentiable]
fn frobenius_and_trace(a: &DMatrix<f64>) -> f64 {
    (a.transpose() * a).trace() + a.trace() * 2.0
}

/// The population variance E[x²] − E[x]².
#[differentiable]
fn variance(x: &DVector<f64>) -> f64 {
    let m = x.mean();
    x.map(|v| v * v).mean() - m * m
}

/// To second order: ‖A‖² + mean(A)·trace(A).
#[differentiable(jvp, hessian)]
fn mean_times_trace(a: &DMatrix<f64>) -> f64 {
    (a.transpose() * a).trace() + a.mean() * a.trace()
}

fn a() -> DMatrix<f64> {
    DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 3.0, 4.0])
}

#[test]
fn trace_and_mean_against_closed_forms() {
    let (value, da) = frobenius_and_trace_grad(&a());
    assert_eq!(value.to_bits(), frobenius_and_trace(&a()).to_bits());
    // 2A + 2I.
    assert_eq!(da, DMatrix::from_row_slice(2, 2, &[4.0, 4.0, 6.0, 10.0]));

    let x = DVector::from_vec(vec![1.0, 2.0, 4.0]);
    let (value, dx) = variance_grad(&x);
    assert_eq!(value.to_bits(), variance(&x).to_bits());
    // (2/3)(x − mean), mean 7/3.
    for i in 0..3 {
        assert!(
            (dx[i] - 2.0 / 3.0 * (x[i] - 7.0 / 3.0)).abs() < 1e-15,
            "{dx}"
        );
    }
    // nalgebra's mean of nothing is 0.
    assert_eq!(
        variance_grad(&DVector::from_vec(vec![])),
        (0.0, DVector::from_vec(vec![]))
    );
}

#[test]
fn trace_of_a_non_square_matrix_panics_as_nalgebra_does() {
    let r = std::panic::catch_unwind(|| frobenius_and_trace_grad(&DMatrix::zeros(2, 3)));
    assert!(r.is_err());
    assert!(std::panic::catch_unwind(|| frobenius_and_trace(&DMatrix::zeros(2, 3))).is_err());
}

#[test]
fn mean_and_trace_to_second_order() {
    let (value, g, h) = mean_times_trace_hessian(&a());
    assert_eq!(value.to_bits(), mean_times_trace(&a()).to_bits());
    // Column-major entries a11, a21, a12, a22: 2a + trace/4 + mean·[diagonal].
    assert_eq!(g.as_slice(), &[5.75, 7.25, 5.25, 11.75]);
    // 2I + (e_d·1ᵀ + 1·e_dᵀ)/4, e_d the diagonal's indicator (entries 0 and 3).
    let diagonal = [1.0, 0.0, 0.0, 1.0];
    for i in 0..4 {
        for j in 0..4 {
            let expected = if i == j { 2.0 } else { 0.0 } + (diagonal[i] + diagonal[j]) / 4.0;
            assert_eq!(h[(i, j)], expected, "({i}, {j})");
        }
    }
}

/// A margin over the smallest entry, with the largest for contrast.
#[differentiable(jvp, hessian)]
fn spread(x: &DVector<f64>, w: f64) -> f64 {
    w * x.min() + x.max() * x.min()
}

#[test]
fn min_is_nalgebras_and_its_gradient_goes_to_the_first_smallest() {
    let x = DVector::from_vec(vec![3.0, -1.5, 2.0, -1.5, 0.5]);
    let (v, dx, dw) = spread_grad(&x, 2.0);
    assert_eq!(v.to_bits(), spread(&x, 2.0).to_bits());
    assert_eq!(v, 2.0 * -1.5 + 3.0 * -1.5);
    // The first of the tied smallest (index 1) takes w + max; the max (index 0) takes min.
    assert_eq!(dx, DVector::from_vec(vec![-1.5, 5.0, 0.0, 0.0, 0.0]));
    assert_eq!(dw, -1.5);
    let (_, tangent) = spread_jvp(
        &x,
        2.0,
        &DVector::from_vec(vec![1.0, 1.0, 0.0, 0.0, 0.0]),
        1.0,
    );
    assert_eq!(tangent, -1.5 + 5.0 - 1.5);
    // Second order: ∂²/∂x0∂x1 = 1, ∂²/∂w∂x1 = 1, all else 0.
    let (_, _, h) = spread_hessian(&x, 2.0);
    assert_eq!(
        (h[(0, 1)], h[(1, 0)], h[(1, 5)], h[(5, 1)]),
        (1.0, 1.0, 1.0, 1.0)
    );
    assert_eq!(h.iter().filter(|v| **v != 0.0).count(), 4);
    // Empty: nalgebra's zero, no gradient.
    let (v, dx, _) = spread_grad(&DVector::zeros(0), 2.0);
    assert_eq!((v, dx.len()), (0.0, 0));
}
