use autograd::differentiable;

/// Realized variance of log returns, pairing each price with the previous one.
#[differentiable]
pub fn lagged_skip_zip(prices: &[f64]) -> f64 {
    prices
        .iter()
        .skip(1)
        .zip(prices.iter())
        .map(|(p1, p0)| (p1 / p0).ln().powi(2))
        .sum()
}

pub fn check() -> Result<(), String> {
    for x in [vec![100.0, 101.3, 99.7, 102.0], vec![50.0, 49.0, 51.5, 52.0, 50.5]] {
        let (v, g) = lagged_skip_zip_grad(&x);
        crate::support::same_value("rv", v, lagged_skip_zip(&x))?;
        let want = crate::support::fd_grad(|q| lagged_skip_zip(q), &x);
        crate::support::close("lagged_skip_zip", &g, &want, 1e-6)?;
    }
    Ok(())
}
