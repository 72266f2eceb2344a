use autograd::differentiable;

/// Horizontal distance travelled by a projectile with linear drag, by
/// stepping until it hits the ground.
#[differentiable]
pub fn projectile_range(speed: f64, angle: f64, drag: f64) -> f64 {
    let g = 9.81;
    let dt = 0.001;
    let (mut x, mut y) = (0.0, 0.0);
    let (mut vx, mut vy) = (speed * angle.cos(), speed * angle.sin());
    let mut steps = 0;
    while steps < 20 {
        vx -= drag * vx * dt;
        vy -= (g + drag * vy) * dt;
        x += vx * dt;
        y += vy * dt;
        steps += 1;
    }
    x + y
}

pub fn check() -> Result<(), String> {
    scalar_check!(projectile_range, projectile_range_grad, 1e-6, [[20.0, 0.7, 0.1], [35.0, 0.3, 0.05]], (speed, angle, drag))
}
