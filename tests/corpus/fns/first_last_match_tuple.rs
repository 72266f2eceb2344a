use autograd::differentiable;

/// Annualised log drift from the first to the last price; zero when there
/// are fewer than two prices.
#[differentiable]
pub fn first_last_match_tuple(prices: &[f64], #[constant] periods_per_year: f64) -> f64 {
    match (prices.first(), prices.last()) {
        (Some(&a), Some(&b)) if prices.len() > 1 => (b / a).ln() * periods_per_year / (prices.len() - 1) as f64,
        _ => 0.0,
    }
}

pub fn check() -> Result<(), String> {
    for x in [vec![100.0, 101.5, 99.8, 103.2], vec![42.0, 40.5, 41.1, 39.9, 43.7, 44.0]] {
        let (v, g) = first_last_match_tuple_grad(&x, 252.0);
        crate::support::same_value("drift", v, first_last_match_tuple(&x, 252.0))?;
        let want = crate::support::fd_grad(|q| first_last_match_tuple(q, 252.0), &x);
        crate::support::close("first_last_match_tuple", &g, &want, 1e-6)?;
    }
    Ok(())
}
