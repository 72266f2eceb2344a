use autograd::differentiable;
use nalgebra::{DMatrix, DVector};

/// Mean squared error of a linear model over a batch whose samples are the
/// columns of `xs`.
#[differentiable]
pub fn batch_columns_loss(xs: &DMatrix<f64>, w: &DVector<f64>) -> f64 {
    let mut total = 0.0;
    for i in 0..xs.ncols() {
        let r = w.dot(&xs.column(i)) - 1.0;
        total += if r.abs() < 10.0 { r * r } else { continue };
    }
    total / xs.ncols() as f64
}

pub fn check() -> Result<(), String> {
    let xs = DMatrix::from_column_slice(2, 3, &[0.5, -1.0, 1.5, 0.2, -0.3, 0.8]);
    let w = DVector::from_vec(vec![0.4, -0.7]);
    let p: Vec<f64> = xs.iter().chain(w.iter()).copied().collect();
    let f = |q: &[f64]| {
        batch_columns_loss(&DMatrix::from_column_slice(2, 3, &q[..6]), &DVector::from_column_slice(&q[6..]))
    };
    let (v, dxs, dw) = batch_columns_loss_grad(&xs, &w);
    crate::support::same_value("batch columns", v, f(&p))?;
    let got: Vec<f64> = dxs.iter().chain(dw.iter()).copied().collect();
    crate::support::close("batch_columns_loss", &got, &crate::support::fd_grad(f, &p), 1e-6)
}
