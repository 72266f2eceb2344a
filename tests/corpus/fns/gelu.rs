use autograd::differentiable;
use std::f64::consts::FRAC_2_SQRT_PI;

/// The tanh approximation of GELU.
#[differentiable]
pub fn gelu(x: f64) -> f64 {
    let c = (FRAC_2_SQRT_PI / std::f64::consts::SQRT_2) * (x + 0.044715 * x.powi(3));
    0.5 * x * (1.0 + c.tanh())
}

pub fn check() -> Result<(), String> {
    scalar_check!(gelu, gelu_grad, 1e-6, [[0.7], [-1.3], [2.5]], (x))
}
