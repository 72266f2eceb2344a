use autograd::differentiable;
use std::f64::consts::PI;

/// Gaussian log-likelihood of data, parameterized by the mean and log sigma.
#[differentiable]
pub fn gaussian_loglik(mu: f64, log_sigma: f64, #[constant] data: &[f64]) -> f64 {
    let sigma = log_sigma.exp();
    let n = data.len() as f64;
    let ss: f64 = data.iter().map(|x| ((x - mu) / sigma).powi(2)).sum();
    -0.5 * n * (2.0 * PI).ln() - n * log_sigma - 0.5 * ss
}

pub fn check() -> Result<(), String> {
    let data = [1.2, 0.7, 2.5, 1.9, 0.1];
    for p in [[1.0, 0.0], [1.5, -0.4], [0.0, 0.8]] {
        let (v, dmu, dls) = gaussian_loglik_grad(p[0], p[1], &data);
        crate::support::same_value("loglik", v, gaussian_loglik(p[0], p[1], &data))?;
        let want = crate::support::fd_grad(|q| gaussian_loglik(q[0], q[1], &data), &p);
        crate::support::close("gaussian_loglik", &[dmu, dls], &want, 1e-6)?;
    }
    Ok(())
}
