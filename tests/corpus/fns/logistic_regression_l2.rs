use autograd::differentiable;

/// L2-regularized logistic loss with labels in {-1, +1}.
#[differentiable]
pub fn logistic_regression_l2(w: &[f64], #[constant] x: &[Vec<f64>], #[constant] y: &[f64], #[constant] lambda: f64) -> f64 {
    let mut loss = 0.0;
    for (xi, &yi) in x.iter().zip(y.iter()) {
        let margin: f64 = yi * xi.iter().zip(w).map(|(a, b)| a * b).sum::<f64>();
        loss += (-margin).exp().ln_1p();
    }
    let reg: f64 = w.iter().map(|v| v * v).sum();
    loss / y.len() as f64 + 0.5 * lambda * reg
}

pub fn check() -> Result<(), String> {
    let x = vec![vec![1.0, 0.5, -0.2], vec![-0.3, 1.2, 0.8], vec![0.7, -1.0, 0.1]];
    let y = [1.0, -1.0, 1.0];
    for w in [vec![0.1, -0.2, 0.3], vec![1.0, 0.0, -0.5]] {
        let (v, g) = logistic_regression_l2_grad(&w, &x, &y, 0.01);
        crate::support::same_value("logreg", v, logistic_regression_l2(&w, &x, &y, 0.01))?;
        let want = crate::support::fd_grad(|q| logistic_regression_l2(q, &x, &y, 0.01), &w);
        crate::support::close("logistic_regression_l2", &g, &want, 1e-6)?;
    }
    Ok(())
}
