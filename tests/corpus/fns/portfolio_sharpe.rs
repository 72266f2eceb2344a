use autograd::differentiable;
use nalgebra::{DMatrix, DVector};

/// Sharpe ratio of weights given expected returns and covariance.
#[differentiable]
pub fn portfolio_sharpe(w: &DVector<f64>, #[constant] mu: &DVector<f64>, #[constant] cov: &DMatrix<f64>, #[constant] rf: f64) -> f64 {
    let excess = w.dot(mu) - rf;
    let var = w.dot(&(cov * w));
    excess / var.sqrt()
}

pub fn check() -> Result<(), String> {
    let mu = DVector::from_vec(vec![0.05, 0.08, 0.12]);
    let cov = DMatrix::from_row_slice(3, 3, &[0.04, 0.01, 0.0, 0.01, 0.09, 0.02, 0.0, 0.02, 0.16]);
    for w in [vec![0.3, 0.3, 0.4], vec![0.6, 0.1, 0.3]] {
        let vw = DVector::from_vec(w.clone());
        let (v, g) = portfolio_sharpe_grad(&vw, &mu, &cov, 0.02);
        crate::support::same_value("sharpe", v, portfolio_sharpe(&vw, &mu, &cov, 0.02))?;
        let want = crate::support::fd_grad(|q| portfolio_sharpe(&DVector::from_column_slice(q), &mu, &cov, 0.02), &w);
        crate::support::close("portfolio_sharpe", g.as_slice(), &want, 1e-6)?;
    }
    Ok(())
}
