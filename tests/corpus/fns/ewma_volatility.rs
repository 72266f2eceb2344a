use autograd::differentiable;

/// RiskMetrics EWMA volatility forecast error against realized squares.
#[differentiable]
pub fn ewma_volatility(lambda: f64, sigma0: f64, #[constant] returns: &[f64]) -> f64 {
    let mut var = sigma0 * sigma0;
    let mut err = 0.0;
    for r in returns.iter() {
        err += (r * r - var).powi(2);
        var = lambda * var + (1.0 - lambda) * r * r;
    }
    (err / returns.len() as f64).sqrt()
}

pub fn check() -> Result<(), String> {
    let rets = [0.01, -0.02, 0.015, -0.005, 0.03, -0.025, 0.002];
    for p in [[0.94, 0.015], [0.8, 0.02]] {
        let (v, dl, ds) = ewma_volatility_grad(p[0], p[1], &rets);
        crate::support::same_value("ewma", v, ewma_volatility(p[0], p[1], &rets))?;
        let want = crate::support::fd_grad(|q| ewma_volatility(q[0], q[1], &rets), &p);
        crate::support::close("ewma_volatility", &[dl, ds], &want, 1e-6)?;
    }
    Ok(())
}
