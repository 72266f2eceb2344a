use autograd::differentiable;

/// Log return from the first to the last price, zero for an empty series.
#[differentiable]
pub fn last_price_unwrap_or(prices: &[f64]) -> f64 {
    let first = prices.first().copied().unwrap_or(1.0);
    let last = prices.last().copied().unwrap_or(1.0);
    (last / first).ln()
}

pub fn check() -> Result<(), String> {
    for x in [vec![100.0, 101.3, 99.7, 102.0], vec![50.0, 49.0]] {
        let (v, g) = last_price_unwrap_or_grad(&x);
        crate::support::same_value("ret", v, last_price_unwrap_or(&x))?;
        let want = crate::support::fd_grad(|q| last_price_unwrap_or(q), &x);
        crate::support::close("last_price_unwrap_or", &g, &want, 1e-6)?;
    }
    let (v, g) = last_price_unwrap_or_grad(&[]);
    if v != 0.0 || !g.is_empty() {
        return Err(format!("empty: {v} {g:?}"));
    }
    Ok(())
}
