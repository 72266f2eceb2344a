use autograd::differentiable;
use nalgebra::{DMatrix, DVector};

/// Two-layer MLP over a batch stored one sample per column: the bias is
/// added to every column in place, softplus hidden layer, mean squared error.
#[differentiable]
pub fn mlp_batch_bias_columns(
    w1: &DMatrix<f64>,
    b1: &DVector<f64>,
    w2: &DMatrix<f64>,
    #[constant] x: &DMatrix<f64>,
    #[constant] y: &DMatrix<f64>,
) -> f64 {
    let mut h = w1 * x;
    for mut col in h.column_iter_mut() {
        col += b1;
    }
    let h = h.map(|v| (1.0 + v.exp()).ln());
    let out = w2 * h;
    (out - y).norm_squared() / x.ncols() as f64
}

pub fn check() -> Result<(), String> {
    let x = DMatrix::from_row_slice(2, 4, &[0.5, -1.0, 2.0, 0.3, 1.1, 0.4, -0.6, -1.2]);
    let y = DMatrix::from_row_slice(1, 4, &[0.7, -0.2, 1.5, 0.1]);
    for s in [1.0, -0.6] {
        let w1 = DMatrix::from_row_slice(3, 2, &[0.1 * s, 0.2, -0.3, 0.4 * s, 0.25, -0.15]);
        let b1 = DVector::from_vec(vec![0.05, -0.1 * s, 0.2]);
        let w2 = DMatrix::from_row_slice(1, 3, &[0.6, -0.4 * s, 0.9]);
        let (v, g1, gb, g2) = mlp_batch_bias_columns_grad(&w1, &b1, &w2, &x, &y);
        crate::support::same_value("mlp", v, mlp_batch_bias_columns(&w1, &b1, &w2, &x, &y))?;
        let mut p: Vec<f64> = w1.iter().copied().collect();
        p.extend(b1.iter());
        p.extend(w2.iter());
        let want = crate::support::fd_grad(
            |q| {
                mlp_batch_bias_columns(
                    &DMatrix::from_column_slice(3, 2, &q[..6]),
                    &DVector::from_column_slice(&q[6..9]),
                    &DMatrix::from_column_slice(1, 3, &q[9..]),
                    &x,
                    &y,
                )
            },
            &p,
        );
        let mut got: Vec<f64> = g1.iter().copied().collect();
        got.extend(gb.iter());
        got.extend(g2.iter());
        crate::support::close("mlp_batch_bias_columns", &got, &want, 1e-6)?;
    }
    Ok(())
}
