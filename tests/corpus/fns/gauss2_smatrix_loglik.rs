use autograd::differentiable;
use nalgebra::{SMatrix, Vector2};

/// Log-likelihood of 2-D observations under a Gaussian with mean (μx, μy),
/// standard deviations (σx, σy) and correlation ρ; the covariance is an
/// `SMatrix<f64, 2, 2>`, its determinant gives the normaliser and its
/// inverse is written out by hand (adjugate over determinant).
#[differentiable]
pub fn gauss2_smatrix_loglik(mu_x: f64, mu_y: f64, sigma_x: f64, sigma_y: f64, rho: f64, #[constant] data: &[(f64, f64)]) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let cov = SMatrix::<f64, 2, 2>::new(
        sigma_x * sigma_x,
        rho * sigma_x * sigma_y,
        rho * sigma_x * sigma_y,
        sigma_y * sigma_y,
    );
    let det = cov.determinant();
    let inv = SMatrix::<f64, 2, 2>::new(cov[(1, 1)], -cov[(0, 1)], -cov[(1, 0)], cov[(0, 0)]) / det;
    let mut ll = 0.0;
    for &(x, y) in data {
        let d = Vector2::new(x - mu_x, y - mu_y);
        let mahalanobis = (d.transpose() * inv * d)[(0, 0)];
        ll -= 0.5 * mahalanobis;
    }
    let n = data.len() as f64;
    ll - 0.5 * n * (det.ln() + 2.0 * (2.0 * std::f64::consts::PI).ln())
}

pub fn check() -> Result<(), String> {
    let data = [(0.3, 1.2), (-0.5, 0.4), (1.1, 2.0), (0.2, 0.9), (-0.1, 0.1), (0.7, 1.6)];
    for p in [[0.1, 0.8, 0.6, 0.7, 0.5], [0.3, 1.0, 1.2, 0.9, -0.3]] {
        let (v, dmx, dmy, dsx, dsy, drho) = gauss2_smatrix_loglik_grad(p[0], p[1], p[2], p[3], p[4], &data);
        crate::support::same_value("gauss2", v, gauss2_smatrix_loglik(p[0], p[1], p[2], p[3], p[4], &data))?;
        let want = crate::support::fd_grad(|q| gauss2_smatrix_loglik(q[0], q[1], q[2], q[3], q[4], &data), &p);
        crate::support::close("gauss2_smatrix_loglik", &[dmx, dmy, dsx, dsy, drho], &want, 1e-6)?;
    }
    Ok(())
}
