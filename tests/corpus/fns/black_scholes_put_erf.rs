use autograd::differentiable;

/// Black–Scholes put with the normal CDF written inline as a polynomial tail.
#[differentiable]
pub fn black_scholes_put_erf(spot: f64, strike: f64, rate: f64, vol: f64, expiry: f64) -> f64 {
    let cdf = |x: f64| {
        let t = 1.0 / (1.0 + 0.2316419 * x.abs());
        let pdf = (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt();
        let tail = pdf * t * (0.319381530 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
        if x >= 0.0 { 1.0 - tail } else { tail }
    };
    let vs = vol * expiry.sqrt();
    let d1 = ((spot / strike).ln() + (rate + 0.5 * vol * vol) * expiry) / vs;
    let d2 = d1 - vs;
    strike * (-rate * expiry).exp() * cdf(-d2) - spot * cdf(-d1)
}

pub fn check() -> Result<(), String> {
    scalar_check!(black_scholes_put_erf, black_scholes_put_erf_grad, 1e-6,
        [[100.0, 105.0, 0.02, 0.25, 1.0], [80.0, 70.0, 0.04, 0.4, 0.75]],
        (spot, strike, rate, vol, expiry))
}
