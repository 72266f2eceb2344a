use autograd::differentiable;
use nalgebra::{Matrix2, Vector2};

/// Bivariate normal log-likelihood; the covariance is built from log
/// standard deviations and a tanh-squashed correlation as a `Matrix2`.
#[differentiable]
pub fn bivariate_normal_matrix2(mu: [f64; 2], log_sd: [f64; 2], rho_raw: f64, #[constant] obs: &[[f64; 2]]) -> f64 {
    let [s1, s2] = log_sd.map(f64::exp);
    let rho = rho_raw.tanh();
    let cov = Matrix2::new(s1 * s1, rho * s1 * s2, rho * s1 * s2, s2 * s2);
    let det = cov.determinant();
    let prec = cov.try_inverse().expect("covariance is positive definite");
    let mean = Vector2::new(mu[0], mu[1]);
    let mut ll = 0.0;
    for &[a, b] in obs {
        let d = Vector2::new(a, b) - mean;
        ll -= 0.5 * d.dot(&(prec * d));
    }
    ll - 0.5 * obs.len() as f64 * (det.ln() + 2.0 * (2.0 * std::f64::consts::PI).ln())
}

pub fn check() -> Result<(), String> {
    let obs = [[0.3, 1.2], [-0.5, 0.4], [1.1, 2.0], [0.2, 0.9], [-0.1, 0.1]];
    for p in [[0.1, 0.8, -0.2, 0.3, 0.4], [0.0, 1.0, 0.5, -0.4, -0.6]] {
        let (v, dmu, dsd, drho) = bivariate_normal_matrix2_grad([p[0], p[1]], [p[2], p[3]], p[4], &obs);
        crate::support::same_value("bvn", v, bivariate_normal_matrix2([p[0], p[1]], [p[2], p[3]], p[4], &obs))?;
        let want = crate::support::fd_grad(|q| bivariate_normal_matrix2([q[0], q[1]], [q[2], q[3]], q[4], &obs), &p);
        crate::support::close("bivariate_normal_matrix2", &[dmu[0], dmu[1], dsd[0], dsd[1], drho], &want, 1e-6)?;
    }
    Ok(())
}
