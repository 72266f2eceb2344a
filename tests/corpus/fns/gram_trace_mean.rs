use autograd::differentiable;
use nalgebra::DMatrix;

/// Weight decay as the trace of the Gram matrix, plus the mean activation.
#[differentiable]
pub fn gram_trace_mean(w: &DMatrix<f64>, #[constant] x: &DMatrix<f64>) -> f64 {
    let h = (w * x).map(|v| v.tanh());
    0.01 * (w.transpose() * w).trace() + h.mean()
}

pub fn check() -> Result<(), String> {
    let x = DMatrix::from_row_slice(2, 3, &[0.5, -1.0, 0.3, 1.2, 0.4, -0.7]);
    for wv in [[0.3, -0.2, 0.8, 0.1], [-1.0, 0.5, 0.25, 0.9]] {
        let w = DMatrix::from_row_slice(2, 2, &wv);
        let (v, g) = gram_trace_mean_grad(&w, &x);
        crate::support::same_value("gram", v, gram_trace_mean(&w, &x))?;
        let want = crate::support::fd_grad(|q| gram_trace_mean(&DMatrix::from_row_slice(2, 2, q), &x), &wv);
        let got: Vec<f64> = (0..2).flat_map(|i| (0..2).map(move |j| (i, j))).map(|(i, j)| g[(i, j)]).collect();
        crate::support::close("gram_trace_mean", &got, &want, 1e-6)?;
    }
    Ok(())
}
