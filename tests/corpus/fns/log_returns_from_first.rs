use autograd::differentiable;

/// Mean squared log return against the first price of the series; an empty
/// series has none.
#[differentiable]
pub fn log_returns_from_first(prices: &[f64]) -> f64 {
    let p0 = match prices.first() {
        Some(&p) => p,
        None => return 0.0,
    };
    let mut s = 0.0;
    for &p in prices.iter() {
        s += (p / p0).ln().powi(2);
    }
    s / prices.len() as f64
}

pub fn check() -> Result<(), String> {
    let p = [100.0, 101.5, 99.2, 103.8, 102.1];
    let (v, dp) = log_returns_from_first_grad(&p);
    crate::support::same_value("log returns", v, log_returns_from_first(&p))?;
    crate::support::close("log_returns_from_first", &dp, &crate::support::fd_grad(log_returns_from_first, &p), 1e-5)?;
    let (v, dp) = log_returns_from_first_grad(&[]);
    if v != 0.0 || !dp.is_empty() {
        return Err(format!("empty series: {v}, {dp:?}"));
    }
    Ok(())
}
