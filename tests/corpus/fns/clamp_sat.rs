use autograd::differentiable;

/// A saturating gain: clamp inside, exp outside.
#[differentiable]
pub fn clamp_sat(x: f64, lo: f64, hi: f64) -> f64 {
    x.clamp(lo, hi).exp()
}

pub fn check() -> Result<(), String> {
    scalar_check!(clamp_sat, clamp_sat_grad, 1e-6, [[0.5, 0.0, 1.0], [-2.0, -1.0, 1.0], [3.0, 0.0, 2.0]], (x, lo, hi))
}
