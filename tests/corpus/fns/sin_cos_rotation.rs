use autograd::differentiable;

/// x-coordinate after rotating (x, y) by θ, using `sin_cos`.
#[differentiable]
pub fn sin_cos_rotation(x: f64, y: f64, theta: f64) -> f64 {
    let (s, c) = theta.sin_cos();
    let xr = c * x - s * y;
    let yr = s * x + c * y;
    xr * xr + 2.0 * yr
}

pub fn check() -> Result<(), String> {
    scalar_check!(sin_cos_rotation, sin_cos_rotation_grad, 1e-6, [[1.0, 0.5, 0.3], [-2.0, 1.0, 2.0]], (x, y, theta))
}
