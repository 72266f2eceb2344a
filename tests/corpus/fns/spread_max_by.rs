use autograd::differentiable;

/// High-low range of a price path relative to its last value.
#[differentiable]
pub fn spread_max_by(prices: &[f64]) -> f64 {
    let hi = prices.iter().cloned().max_by(|a, b| a.partial_cmp(b).unwrap()).unwrap();
    let lo = prices.iter().cloned().min_by(|a, b| a.partial_cmp(b).unwrap()).unwrap();
    (hi - lo) / prices[prices.len() - 1]
}

pub fn check() -> Result<(), String> {
    for p in [vec![100.0, 101.5, 99.2, 100.7], vec![50.0, 48.0, 53.5, 51.0, 52.2]] {
        let (v, g) = spread_max_by_grad(&p);
        crate::support::same_value("spread", v, spread_max_by(&p))?;
        let want = crate::support::fd_grad(|q| spread_max_by(q), &p);
        crate::support::close("spread_max_by", &g, &want, 1e-6)?;
    }
    Ok(())
}
