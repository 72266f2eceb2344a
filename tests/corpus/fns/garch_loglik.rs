use autograd::differentiable;

/// GARCH(1,1) Gaussian negative log-likelihood of returns.
#[differentiable]
pub fn garch_loglik(omega: f64, alpha: f64, beta: f64, #[constant] returns: &[f64]) -> f64 {
    let mut var = returns.iter().map(|r| r * r).sum::<f64>() / returns.len() as f64;
    let mut nll = 0.0;
    for &r in returns {
        nll += 0.5 * (var.ln() + r * r / var);
        var = omega + alpha * r * r + beta * var;
    }
    nll
}

pub fn check() -> Result<(), String> {
    let rets = [0.01, -0.02, 0.015, -0.03, 0.005, 0.02, -0.01];
    for p in [[1e-5, 0.08, 0.9], [2e-5, 0.15, 0.8]] {
        let (v, a, b, c) = garch_loglik_grad(p[0], p[1], p[2], &rets);
        crate::support::same_value("garch", v, garch_loglik(p[0], p[1], p[2], &rets))?;
        let want = crate::support::fd_grad(|q| garch_loglik(q[0], q[1], q[2], &rets), &p);
        crate::support::close("garch_loglik", &[a, b, c], &want, 1e-6)?;
    }
    Ok(())
}
