use autograd::differentiable;
use autograd::prelude::*;
use nalgebra::{DMatrix, DVector};

#[differentiable]
fn layer(w: &DMatrix<f64>, x: &DVector<f64>, b: &DVector<f64>) -> f64 {
    let z = w * x + b;
    z.map(|v| v.tanh()).sum()
}

#[differentiable]
fn mm(x: DMatrix<f64>, m: &DMatrix<f64>) -> DMatrix<f64> {
    x * m
}

#[differentiable]
fn relu_sum(x: &DMatrix<f64>) -> f64 {
    x.relu().sum() + 2.0 * x.max()
}

#[differentiable]
fn rnn(w: &DMatrix<f64>, h0: &DVector<f64>, x: &DVector<f64>) -> f64 {
    let mut h = h0.clone();
    for _ in 0..3 {
        h = (w * h + x).map(f64::tanh);
    }
    h.sum()
}

#[test]
fn seed_matmul() {
    let x = DMatrix::from_row_slice(2, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let m = DMatrix::from_row_slice(3, 2, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let (y, pb) = mm_vjp(x.clone(), &m);
    assert_eq!(y, DMatrix::from_row_slice(2, 2, &[22.0, 28.0, 49.0, 64.0]));
    let (dx, dm) = pb(DMatrix::repeat(2, 2, 1.0));
    assert_eq!(
        dx,
        DMatrix::from_row_slice(2, 3, &[3.0, 7.0, 11.0, 3.0, 7.0, 11.0])
    );
    assert_eq!(
        dm,
        DMatrix::from_row_slice(3, 2, &[5.0, 5.0, 7.0, 7.0, 9.0, 9.0])
    );
}

#[test]
fn layer_checks() {
    let w = DMatrix::from_fn(3, 2, |i, j| 0.1 * (i as f64) - 0.2 * (j as f64) + 0.05);
    let x = DVector::from_vec(vec![0.3, -0.7]);
    let b = DVector::from_vec(vec![0.1, 0.2, -0.1]);
    let check = layer_check(&w, &x, &b);
    assert!(check.is_within(1e-7, 1e-6), "{check}");
    let check = relu_sum_check(&DMatrix::from_row_slice(2, 2, &[1.0, -2.0, 3.5, 0.5]));
    assert!(check.is_within(1e-7, 1e-6), "{check}");
    let h0 = DVector::from_vec(vec![0.1, -0.2]);
    let w = DMatrix::from_row_slice(2, 2, &[0.5, -0.3, 0.2, 0.8]);
    let check = rnn_check(&w, &h0, &x);
    assert!(check.is_within(1e-7, 1e-6), "{check}");
}
