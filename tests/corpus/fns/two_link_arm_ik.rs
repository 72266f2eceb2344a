use autograd::differentiable;
use std::f64::consts::PI;

/// Elbow angle of a two-link arm reaching (x, y): law of cosines with a clamp,
/// shoulder angle from atan2, the loss a penalty against a preferred posture.
#[differentiable]
pub fn two_link_arm_ik(x: f64, y: f64, l1: f64, l2: f64) -> f64 {
    let r = x.hypot(y);
    let cos_elbow = ((r * r - l1 * l1 - l2 * l2) / (2.0 * l1 * l2)).clamp(-1.0, 1.0);
    let elbow = cos_elbow.acos();
    let shoulder = y.atan2(x) - (l2 * elbow.sin()).atan2(l1 + l2 * elbow.cos());
    (shoulder - PI / 4.0).powi(2) + (elbow - PI / 3.0).powi(2)
}

pub fn check() -> Result<(), String> {
    scalar_check!(two_link_arm_ik, two_link_arm_ik_grad, 1e-6, [[1.0, 0.8, 1.0, 0.9], [-0.5, 1.2, 1.1, 0.7]], (x, y, l1, l2))
}
