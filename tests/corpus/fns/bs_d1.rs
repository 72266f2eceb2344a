use autograd::differentiable;

#[differentiable]
pub fn bs_d1(s: f64, k: f64, r: f64, q: f64, sigma: f64, t: f64) -> f64 {
    ((s / k).ln() + (r - q + sigma.powi(2) / 2.0) * t) / (sigma * t.sqrt())
}

pub fn check() -> Result<(), String> {
    scalar_check!(bs_d1, bs_d1_grad, 1e-6,
        [[100.0, 90.0, 0.03, 0.01, 0.2, 1.0], [42.0, 40.0, 0.1, 0.0, 0.2, 0.5]], (s, k, r, q, sigma, t))
}
