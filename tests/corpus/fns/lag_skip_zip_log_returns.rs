use autograd::differentiable;

/// Realised variance of log returns, pairs from `skip(1).zip`, the mean
/// removed.
#[differentiable]
pub fn lag_skip_zip_log_returns(p: &[f64]) -> f64 {
    let r: Vec<f64> = p.iter().skip(1).zip(p.iter()).map(|(b, a)| (b / a).ln()).collect();
    let n = r.len() as f64;
    let mean = r.iter().sum::<f64>() / n;
    r.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)
}

pub fn check() -> Result<(), String> {
    for p in [vec![100.0, 101.0, 99.5, 102.0, 103.1], vec![10.0, 9.0, 9.5, 11.0]] {
        let (v, g) = lag_skip_zip_log_returns_grad(&p);
        crate::support::same_value("lag", v, lag_skip_zip_log_returns(&p))?;
        let want = crate::support::fd_grad(lag_skip_zip_log_returns, &p);
        crate::support::close("lag_skip_zip_log_returns", &g, &want, 1e-6)?;
    }
    Ok(())
}
