use autograd::differentiable;

/// Conditional Gaussian log-likelihood of an AR(1) series.
#[differentiable]
pub fn ar1_windows_loglik(c: f64, phi: f64, sigma: f64, #[constant] x: &[f64]) -> f64 {
    let n = (x.len() - 1) as f64;
    let sse = x
        .windows(2)
        .map(|w| {
            let e = w[1] - c - phi * w[0];
            e * e
        })
        .sum::<f64>();
    -0.5 * n * (2.0 * std::f64::consts::PI * sigma * sigma).ln() - sse / (2.0 * sigma * sigma)
}

pub fn check() -> Result<(), String> {
    let x = [0.1, 0.3, 0.25, 0.5, 0.4, 0.45, 0.7, 0.6];
    for p in [[0.05, 0.6, 0.2], [0.0, 0.9, 0.5]] {
        let (v, a, b, d) = ar1_windows_loglik_grad(p[0], p[1], p[2], &x);
        crate::support::same_value("ar1", v, ar1_windows_loglik(p[0], p[1], p[2], &x))?;
        let want = crate::support::fd_grad(|q| ar1_windows_loglik(q[0], q[1], q[2], &x), &p);
        crate::support::close("ar1_windows_loglik", &[a, b, d], &want, 1e-6)?;
    }
    Ok(())
}
