use autograd::differentiable;
use std::f64::consts::PI;

/// A&S 26.2.17 normal CDF.
#[differentiable]
pub fn norm_cdf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.2316419 * x.abs());
    let poly = t * (0.319381530 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
    let tail = (-0.5 * x * x).exp() / (2.0 * PI).sqrt() * poly;
    if x >= 0.0 { 1.0 - tail } else { tail }
}

/// Tobit (left-censored at zero) negative log-likelihood of y* = a + b x + σ ε.
#[differentiable]
pub fn tobit_censored_loglik(a: f64, b: f64, log_sigma: f64, #[constant] x: &[f64], #[constant] y: &[f64]) -> f64 {
    let sigma = log_sigma.exp();
    let mut nll = 0.0;
    for (&xi, &yi) in x.iter().zip(y) {
        let mu = a + b * xi;
        if yi <= 0.0 {
            nll -= norm_cdf(-mu / sigma).ln();
        } else {
            let z = (yi - mu) / sigma;
            nll += 0.5 * z * z + log_sigma + 0.5 * (2.0 * PI).ln();
        }
    }
    nll
}

pub fn check() -> Result<(), String> {
    let x = [-1.0, -0.5, 0.0, 0.4, 0.9, 1.3, 2.0];
    let y = [0.0, 0.0, 0.3, 0.0, 1.2, 1.1, 2.4];
    for p in [[0.2, 1.0, -0.3], [-0.1, 0.7, 0.1]] {
        let (v, da, db, ds) = tobit_censored_loglik_grad(p[0], p[1], p[2], &x, &y);
        crate::support::same_value("tobit", v, tobit_censored_loglik(p[0], p[1], p[2], &x, &y))?;
        let want = crate::support::fd_grad(|q| tobit_censored_loglik(q[0], q[1], q[2], &x, &y), &p);
        crate::support::close("tobit_censored_loglik", &[da, db, ds], &want, 1e-6)?;
    }
    Ok(())
}
