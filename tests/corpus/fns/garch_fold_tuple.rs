use autograd::differentiable;

/// GARCH(1,1) negative log-likelihood written as a fold over (nll, variance).
#[differentiable]
pub fn garch_fold_tuple(omega: f64, alpha: f64, beta: f64, #[constant] returns: &[f64]) -> f64 {
    let var0 = returns.iter().map(|r| r * r).sum::<f64>() / returns.len() as f64;
    let (nll, _) = returns.iter().fold((0.0, var0), |(acc, var), &r| {
        let term = 0.5 * (var.ln() + r * r / var);
        (acc + term, omega + alpha * r * r + beta * var)
    });
    nll
}

pub fn check() -> Result<(), String> {
    let rets = [0.01, -0.02, 0.015, -0.005, 0.03, -0.025, 0.002];
    for x in [[1e-5, 0.08, 0.9], [2e-5, 0.15, 0.8]] {
        let (v, a, b, c) = garch_fold_tuple_grad(x[0], x[1], x[2], &rets);
        crate::support::same_value("garch", v, garch_fold_tuple(x[0], x[1], x[2], &rets))?;
        let want = crate::support::fd_grad(|q| garch_fold_tuple(q[0], q[1], q[2], &rets), &x);
        crate::support::close("garch_fold_tuple", &[a, b, c], &want, 1e-6)?;
    }
    Ok(())
}
