use autograd::differentiable;

/// A digital call payoff smoothed by a logistic of width `eps`.
#[differentiable]
pub fn digital_smoothed(s: f64, k: f64, eps: f64) -> f64 {
    1.0 / (1.0 + (-(s - k) / eps).exp())
}

pub fn check() -> Result<(), String> {
    scalar_check!(digital_smoothed, digital_smoothed_grad, 1e-6, [[101.0, 100.0, 0.5], [99.0, 100.0, 2.0], [100.2, 100.0, 0.1]], (s, k, eps))
}
