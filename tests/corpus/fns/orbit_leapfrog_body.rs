use autograd::differentiable;
use nalgebra::Vector2;

/// Position and velocity of an orbiting body.
#[derive(Clone, Copy, Debug)]
struct Body {
    pos: Vector2<f64>,
    vel: Vector2<f64>,
}

/// Squared miss distance to a target after a kick-drift-kick leapfrog orbit
/// around a point mass: start at (r0, 0) moving at v0 along +y at an angle
/// `tilt` off the tangent; gravity is a closure capturing GM.
#[differentiable]
pub fn orbit_leapfrog_body(r0: f64, v0: f64, tilt: f64, gm: f64, #[constant] target: Vector2<f64>, steps: usize) -> f64 {
    let dt = 0.01;
    let gravity = |p: Vector2<f64>| -p * (gm / p.norm().powi(3));
    let mut body = Body {
        pos: Vector2::new(r0, 0.0),
        vel: Vector2::new(v0 * tilt.sin(), v0 * tilt.cos()),
    };
    let mut acc = gravity(body.pos);
    for _ in 0..steps {
        let half = body.vel + acc * (0.5 * dt);
        let pos = body.pos + half * dt;
        acc = gravity(pos);
        let vel = half + acc * (0.5 * dt);
        body = Body { pos, vel };
    }
    (body.pos - target).norm_squared()
}

pub fn check() -> Result<(), String> {
    let target = Vector2::new(0.0, 1.0);
    for p in [[1.0, 1.0, 0.1, 1.0], [1.2, 0.8, -0.2, 0.9]] {
        let (v, dr, dv, dtilt, dgm) = orbit_leapfrog_body_grad(p[0], p[1], p[2], p[3], target, 150);
        crate::support::same_value("orbit", v, orbit_leapfrog_body(p[0], p[1], p[2], p[3], target, 150))?;
        let want = crate::support::fd_grad(|q| orbit_leapfrog_body(q[0], q[1], q[2], q[3], target, 150), &p);
        crate::support::close("orbit_leapfrog_body", &[dr, dv, dtilt, dgm], &want, 1e-6)?;
    }
    Ok(())
}
