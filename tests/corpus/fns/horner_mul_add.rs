use autograd::differentiable;

const C: [f64; 6] = [1.0, 1.0, 0.5, 1.0 / 6.0, 1.0 / 24.0, 1.0 / 120.0];

/// Truncated exp series with fused multiply-add, coefficients lowest degree first.
#[differentiable]
pub fn horner_mul_add(x: f64) -> f64 {
    C.iter().rev().fold(0.0_f64, |acc, &c| acc.mul_add(x, c))
}

pub fn check() -> Result<(), String> {
    scalar_check!(horner_mul_add, horner_mul_add_grad, 1e-6, [[0.2], [-0.9], [1.5]], (x))
}
