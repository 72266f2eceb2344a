use autograd::differentiable;
use std::f64::consts::PI;

/// Abramowitz–Stegun 26.2.17 normal CDF.
#[differentiable]
pub fn norm_cdf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.2316419 * x.abs());
    let poly = t * (0.319381530 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
    let tail = (-0.5 * x * x).exp() / (2.0 * PI).sqrt() * poly;
    if x >= 0.0 { 1.0 - tail } else { tail }
}

#[differentiable]
pub fn bs_call(s: f64, k: f64, r: f64, sigma: f64, t: f64) -> f64 {
    let d1 = ((s / k).ln() + (r + 0.5 * sigma * sigma) * t) / (sigma * t.sqrt());
    let d2 = d1 - sigma * t.sqrt();
    s * norm_cdf(d1) - k * (-r * t).exp() * norm_cdf(d2)
}

/// Black–Scholes implied volatility by Newton's method on vega, leaving the
/// loop as soon as the price is matched. Its gradient is (1/vega, −delta/vega).
#[differentiable]
pub fn bs_implied_vol_newton_break(price: f64, s: f64, #[constant] k: f64, #[constant] r: f64, #[constant] t: f64) -> f64 {
    let mut sigma = 0.2;
    for _ in 0..50 {
        let diff = bs_call(s, k, r, sigma, t) - price;
        if diff.abs() < 1e-12 {
            break;
        }
        let d1 = ((s / k).ln() + (r + 0.5 * sigma * sigma) * t) / (sigma * t.sqrt());
        let vega = s * (-0.5 * d1 * d1).exp() / (2.0 * PI).sqrt() * t.sqrt();
        sigma -= diff / vega;
    }
    sigma
}

pub fn check() -> Result<(), String> {
    for (x, k) in [([10.45, 100.0], 100.0), ([4.2, 95.0], 105.0)] {
        let (v, dp, ds) = bs_implied_vol_newton_break_grad(x[0], x[1], k, 0.02, 1.0);
        crate::support::same_value("iv", v, bs_implied_vol_newton_break(x[0], x[1], k, 0.02, 1.0))?;
        let want = crate::support::fd_grad(|q| bs_implied_vol_newton_break(q[0], q[1], k, 0.02, 1.0), &x);
        crate::support::close("bs_implied_vol_newton_break", &[dp, ds], &want, 1e-6)?;
    }
    Ok(())
}
