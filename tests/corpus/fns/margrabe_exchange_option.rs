use autograd::differentiable;

/// Standard normal CDF, Zelen–Severo (A&S 26.2.17), |error| < 7.5e-8.
#[differentiable]
pub fn std_normal_cdf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.2316419 * x.abs());
    let pdf = (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt();
    let tail = pdf * t * (0.319381530 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
    if x >= 0.0 { 1.0 - tail } else { tail }
}

/// Margrabe's price of the option to exchange asset 2 for asset 1, with
/// continuous dividend yields and correlated lognormal assets.
#[differentiable]
pub fn margrabe_exchange_option(s1: f64, s2: f64, q1: f64, q2: f64, sigma1: f64, sigma2: f64, rho: f64, t: f64) -> f64 {
    let sigma = (sigma1 * sigma1 + sigma2 * sigma2 - 2.0 * rho * sigma1 * sigma2).sqrt();
    let vol_t = sigma * t.sqrt();
    let f1 = s1 * (-q1 * t).exp();
    let f2 = s2 * (-q2 * t).exp();
    let d1 = ((f1 / f2).ln() + 0.5 * vol_t * vol_t) / vol_t;
    let d2 = d1 - vol_t;
    f1 * std_normal_cdf(d1) - f2 * std_normal_cdf(d2)
}

pub fn check() -> Result<(), String> {
    scalar_check!(margrabe_exchange_option, margrabe_exchange_option_grad, 1e-6,
        [[100.0, 95.0, 0.02, 0.01, 0.25, 0.3, 0.4, 1.0], [50.0, 60.0, 0.0, 0.03, 0.4, 0.2, -0.3, 0.5], [80.0, 80.0, 0.01, 0.01, 0.2, 0.2, 0.7, 2.0]],
        (s1, s2, q1, q2, sigma1, sigma2, rho, t))
}
