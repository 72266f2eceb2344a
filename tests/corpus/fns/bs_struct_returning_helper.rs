use autograd::differentiable;
use std::f64::consts::SQRT_2;

/// The two Black–Scholes moneyness terms.
#[derive(Clone, Copy, Debug)]
pub struct D {
    pub d1: f64,
    pub d2: f64,
}

/// Standard normal CDF, Abramowitz–Stegun 7.1.26.
#[differentiable]
fn norm_cdf(x: f64) -> f64 {
    let z = x.abs() / SQRT_2;
    let t = 1.0 / (1.0 + 0.3275911 * z);
    let poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
    let erf = 1.0 - poly * (-z * z).exp();
    if x >= 0.0 { 0.5 * (1.0 + erf) } else { 0.5 * (1.0 - erf) }
}

/// d1 and d2, returned together in a struct.
#[differentiable]
fn d_terms(s: f64, k: f64, r: f64, vol: f64, t: f64) -> D {
    let sd = vol * t.sqrt();
    let d1 = ((s / k).ln() + (r + 0.5 * vol * vol) * t) / sd;
    D { d1, d2: d1 - sd }
}

/// Black–Scholes put from the struct-returning helper.
#[differentiable]
pub fn bs_struct_returning_helper(s: f64, k: f64, r: f64, vol: f64, t: f64) -> f64 {
    let d = d_terms(s, k, r, vol, t);
    k * (-r * t).exp() * norm_cdf(-d.d2) - s * norm_cdf(-d.d1)
}

pub fn check() -> Result<(), String> {
    scalar_check!(bs_struct_returning_helper, bs_struct_returning_helper_grad, 1e-6,
        [[100.0, 95.0, 0.03, 0.2, 1.0], [50.0, 60.0, 0.01, 0.35, 0.5]],
        (s, k, r, vol, t))
}
