use autograd::differentiable;

/// Negative log-likelihood of a Weibull sample (shape k, scale lambda).
#[differentiable]
pub fn weibull_loglik(k: f64, lambda: f64, #[constant] data: &[f64]) -> f64 {
    let n = data.len() as f64;
    let mut nll = -n * (k.ln() - k * lambda.ln());
    for &x in data {
        nll -= (k - 1.0) * x.ln();
        nll += (x / lambda).powf(k);
    }
    nll
}

pub fn check() -> Result<(), String> {
    let data = [0.8, 1.3, 2.1, 0.4, 1.7, 3.0];
    for p in [[1.5, 1.2], [0.9, 2.0]] {
        let (v, dk, dl) = weibull_loglik_grad(p[0], p[1], &data);
        crate::support::same_value("weibull", v, weibull_loglik(p[0], p[1], &data))?;
        let want = crate::support::fd_grad(|q| weibull_loglik(q[0], q[1], &data), &p);
        crate::support::close("weibull_loglik", &[dk, dl], &want, 1e-6)?;
    }
    Ok(())
}
