use autograd::differentiable;
use nalgebra::{DMatrix, DVector};

/// Mean-variance utility of weights: μᵀw − (γ/2) wᵀΣw.
#[differentiable]
pub fn portfolio_var_dvector(w: &DVector<f64>, #[constant] mu: &DVector<f64>, #[constant] cov: &DMatrix<f64>, #[constant] gamma: f64) -> f64 {
    let sigma_w = cov * w;
    mu.dot(w) - 0.5 * gamma * w.dot(&sigma_w)
}

pub fn check() -> Result<(), String> {
    let mu = DVector::from_vec(vec![0.05, 0.07, 0.03]);
    let cov = DMatrix::from_row_slice(3, 3, &[0.04, 0.01, 0.0, 0.01, 0.09, 0.02, 0.0, 0.02, 0.01]);
    for w in [vec![0.3, 0.5, 0.2], vec![1.0, -0.5, 0.5]] {
        let vw = DVector::from_vec(w.clone());
        let (v, g) = portfolio_var_dvector_grad(&vw, &mu, &cov, 3.0);
        crate::support::same_value("mv", v, portfolio_var_dvector(&vw, &mu, &cov, 3.0))?;
        let want = crate::support::fd_grad(|q| portfolio_var_dvector(&DVector::from_column_slice(q), &mu, &cov, 3.0), &w);
        let got: Vec<f64> = g.iter().copied().collect();
        crate::support::close("portfolio_var_dvector", &got, &want, 1e-6)?;
    }
    Ok(())
}
