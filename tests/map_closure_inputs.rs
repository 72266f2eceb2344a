//! `m.map(|v| ..)` closures that read floats carrying a derivative: the
//! shift of a log-sum-exp (`|x| (x - m).exp()`, `m` the vector's max), a
//! standardisation by a mean and a scale the function takes, a constant
//! matrix scaled by a differentiable factor. The closure's partial in each
//! float it reads is summed over the elements. Expected adjoints are closed
//! forms (`CF64_*`) or five-point central differences of the primal
//! (`FD64_*`); values are the primal's bit for bit.

mod fd_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use fd_support::*;
use nalgebra::{DMatrix, DVector};

fn close(actual: &[f64], expected: &[f64], abs: f64, rel: f64) {
    assert_eq!(actual.len(), expected.len());
    for (a, e) in actual.iter().zip(expected) {
        assert_relative_eq!(*a, *e, epsilon = abs, max_relative = rel);
    }
}

/// log Σ exp(xᵢ), shifted by the max as numerical code writes it.
#[differentiable(jvp, hessian)]
fn log_sum_exp(v: &DVector<f64>) -> f64 {
    let m = v.max();
    v.map(|x| (x - m).exp()).sum().ln() + m
}

/// Σ ((xᵢ − μ)/s)².
#[differentiable(jvp, hessian)]
fn standardized_norm(v: &DVector<f64>, mu: f64, s: f64) -> f64 {
    let z = v.map(|x| (x - mu) / s);
    z.dot(&z)
}

/// Σ tanh(k·aᵢⱼ) of a constant matrix: only the captured `k` varies.
#[differentiable(jvp)]
fn scaled_tanh(#[constant] a: &DMatrix<f64>, k: f64) -> f64 {
    let scale = k * 2.0;
    a.map(|x| (x * scale).tanh()).sum()
}

#[test]
fn a_log_sum_exp_differentiates_through_its_shift() {
    let v = DVector::from_vec(vec![0.3, 1.2, -0.7, 0.5]);
    let (value, g) = log_sum_exp_grad(&v);
    assert_eq!(value.to_bits(), log_sum_exp(&v).to_bits());
    // The softmax: the shift's own partials sum to zero.
    let z: f64 = v.iter().map(|x| x.exp()).sum();
    let softmax: Vec<f64> = v.iter().map(|x| x.exp() / z).collect();
    close(g.as_slice(), &softmax, CF64_ABS, CF64_REL);
    let dir = DVector::from_vec(vec![1.0, -1.0, 0.5, 2.0]);
    let (_, t) = log_sum_exp_jvp(&v, &dir);
    close(&[t], &[g.dot(&dir)], CF64_ABS, CF64_REL);
    // Hessian: diag(p) − p pᵀ.
    let (_, _, h) = log_sum_exp_hessian(&v);
    for i in 0..4 {
        for j in 0..4 {
            let want = if i == j { softmax[i] } else { 0.0 } - softmax[i] * softmax[j];
            assert_relative_eq!(h[(i, j)], want, epsilon = 1e-12, max_relative = 1e-10);
        }
    }
}

#[test]
fn a_closure_reads_a_mean_and_a_scale() {
    let x = [0.3, 1.2, -0.7];
    let (mu, s) = (0.2, 1.5);
    let v = DVector::from_column_slice(&x);
    let (value, gv, gmu, gs) = standardized_norm_grad(&v, mu, s);
    assert_eq!(value.to_bits(), standardized_norm(&v, mu, s).to_bits());
    // d/dxᵢ = 2(xᵢ − μ)/s², d/dμ = −Σ 2(xᵢ − μ)/s², d/ds = −2 Σ (xᵢ − μ)²/s³.
    let dx: Vec<f64> = x.iter().map(|xi| 2.0 * (xi - mu) / (s * s)).collect();
    let dmu = -dx.iter().sum::<f64>();
    let ds = -2.0 * x.iter().map(|xi| (xi - mu) * (xi - mu)).sum::<f64>() / (s * s * s);
    close(gv.as_slice(), &dx, CF64_ABS, CF64_REL);
    close(&[gmu, gs], &[dmu, ds], CF64_ABS, CF64_REL);
    let (_, t) = standardized_norm_jvp(&v, mu, s, &DVector::zeros(3), 1.0, -0.5);
    close(&[t], &[dmu - 0.5 * ds], CF64_ABS, CF64_REL);
    let (_, _, h) = standardized_norm_hessian(&v, mu, s);
    // Row μ against central differences of the gradient's μ entry.
    let at = [x[0], x[1], x[2], mu, s];
    let f = |p: &[f64]| standardized_norm_grad(&DVector::from_column_slice(&p[..3]), p[3], p[4]).2;
    let row = fd64_slice(f, &at);
    close(
        &(0..5).map(|j| h[(3, j)]).collect::<Vec<_>>(),
        &row,
        FD64_ABS,
        FD64_REL,
    );
}

#[test]
fn a_constant_matrix_scaled_by_a_captured_factor() {
    let a = DMatrix::from_row_slice(2, 2, &[0.5, -1.0, 0.25, 2.0]);
    let k = 0.3;
    let (value, dk) = scaled_tanh_grad(&a, k);
    assert_eq!(value.to_bits(), scaled_tanh(&a, k).to_bits());
    // Σ 2aᵢⱼ (1 − tanh²(2k aᵢⱼ)).
    let want: f64 = a
        .iter()
        .map(|x| 2.0 * x * (1.0 - (2.0 * k * x).tanh().powi(2)))
        .sum();
    close(&[dk], &[want], CF64_ABS, CF64_REL);
    let (_, t) = scaled_tanh_jvp(&a, k, 2.0);
    close(&[t], &[2.0 * want], CF64_ABS, CF64_REL);
}
