use autograd::differentiable;

/// Distance and angle combined: r·θ with hypot and atan2.
#[differentiable]
pub fn polar_radius(x: f64, y: f64) -> f64 {
    let r = x.hypot(y);
    let theta = y.atan2(x);
    r * theta
}

pub fn check() -> Result<(), String> {
    scalar_check!(polar_radius, polar_radius_grad, 1e-6, [[1.0, 2.0], [-0.5, 0.3], [3.0, -4.0]], (x, y))
}
