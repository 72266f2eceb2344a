use autograd::differentiable;

/// Black–Scholes vega, differentiated once more (vomma/vanna from the gradient).
#[differentiable]
pub fn bs_vega(s: f64, k: f64, r: f64, sigma: f64, t: f64) -> f64 {
    let sqrt_t = t.sqrt();
    let d1 = (f64::ln(s / k) + (r + 0.5 * sigma * sigma) * t) / (sigma * sqrt_t);
    let pdf = (-d1 * d1 / 2.0).exp() / (2.0 * std::f64::consts::PI).sqrt();
    s * pdf * sqrt_t
}

pub fn check() -> Result<(), String> {
    scalar_check!(bs_vega, bs_vega_grad, 1e-6, [[100.0, 100.0, 0.01, 0.2, 1.0], [100.0, 120.0, 0.03, 0.3, 0.25]], (s, k, r, sigma, t))
}
