use autograd::differentiable;

/// Poisson regression log-likelihood with a log link (the ln k! term dropped).
#[differentiable]
pub fn poisson_loglik(beta: &[f64], #[constant] x: &[f64], #[constant] counts: &[u32]) -> f64 {
    let mut ll = 0.0;
    for i in 0..counts.len() {
        let eta = beta[0] + beta[1] * x[i];
        ll += counts[i] as f64 * eta - eta.exp();
    }
    ll
}

pub fn check() -> Result<(), String> {
    let x = [0.0, 0.5, 1.0, 1.5, 2.0];
    let k = [1, 2, 2, 4, 7];
    for b in [vec![0.1, 0.8], vec![-0.5, 1.2]] {
        let (v, g) = poisson_loglik_grad(&b, &x, &k);
        crate::support::same_value("poisson", v, poisson_loglik(&b, &x, &k))?;
        let want = crate::support::fd_grad(|q| poisson_loglik(q, &x, &k), &b);
        crate::support::close("poisson_loglik", &g, &want, 1e-6)?;
    }
    Ok(())
}
