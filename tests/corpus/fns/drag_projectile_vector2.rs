use autograd::differentiable;
use nalgebra::Vector2;

/// Squared miss distance of a projectile with quadratic air drag, launched
/// at speed v0 and elevation `angle`, stepped with semi-implicit Euler until
/// it crosses the ground; the landing point is interpolated linearly.
#[differentiable]
pub fn drag_projectile_vector2(v0: f64, angle: f64, drag: f64, #[constant] target: f64) -> f64 {
    let dt = 0.01;
    let g = Vector2::new(0.0, -9.81);
    let mut pos = Vector2::new(0.0, 0.0);
    let mut vel = Vector2::new(v0 * angle.cos(), v0 * angle.sin());
    let mut prev = pos;
    while pos.y >= 0.0 {
        prev = pos;
        let acc = g - vel * (drag * vel.norm());
        vel += acc * dt;
        pos += vel * dt;
    }
    let frac = prev.y / (prev.y - pos.y);
    let landing = prev.x + frac * (pos.x - prev.x);
    (landing - target).powi(2)
}

pub fn check() -> Result<(), String> {
    for p in [[20.0, 0.7, 0.01], [35.0, 0.4, 0.003]] {
        let (v, dv0, dangle, ddrag) = drag_projectile_vector2_grad(p[0], p[1], p[2], 30.0);
        crate::support::same_value("projectile", v, drag_projectile_vector2(p[0], p[1], p[2], 30.0))?;
        let want = crate::support::fd_grad(|q| drag_projectile_vector2(q[0], q[1], q[2], 30.0), &p);
        crate::support::close("drag_projectile_vector2", &[dv0, dangle, ddrag], &want, 1e-6)?;
    }
    Ok(())
}
