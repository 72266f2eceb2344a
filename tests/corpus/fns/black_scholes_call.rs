use autograd::differentiable;
use std::f64::consts::SQRT_2;

/// Standard normal CDF via erfc-free Abramowitz–Stegun 7.1.26 on |x|.
#[differentiable]
pub fn norm_cdf(x: f64) -> f64 {
    let z = x.abs() / SQRT_2;
    let t = 1.0 / (1.0 + 0.3275911 * z);
    let poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
    let erf = 1.0 - poly * (-z * z).exp();
    if x >= 0.0 { 0.5 * (1.0 + erf) } else { 0.5 * (1.0 - erf) }
}

/// Black–Scholes call price.
#[differentiable]
pub fn black_scholes_call(s: f64, k: f64, r: f64, sigma: f64, t: f64) -> f64 {
    let sqrt_t = t.sqrt();
    let d1 = ((s / k).ln() + (r + 0.5 * sigma * sigma) * t) / (sigma * sqrt_t);
    let d2 = d1 - sigma * sqrt_t;
    s * norm_cdf(d1) - k * (-r * t).exp() * norm_cdf(d2)
}

pub fn check() -> Result<(), String> {
    scalar_check!(black_scholes_call, black_scholes_call_grad, 1e-6,
        [[100.0, 95.0, 0.03, 0.2, 1.0], [50.0, 60.0, 0.01, 0.35, 0.5], [100.0, 100.0, 0.05, 0.15, 2.0]],
        (s, k, r, sigma, t))
}
