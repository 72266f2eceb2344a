use autograd::differentiable;
use std::f64::consts::{PI, TAU};

/// Wrapped heading error of a robot relative to waypoints: bearing by
/// `atan2`, wrapped into (−π, π] by a `while` loop, squared.
#[differentiable(jvp)]
pub fn atan2_heading_jvp(x: f64, y: f64, heading: f64, #[constant] waypoints: &[(f64, f64)]) -> f64 {
    let mut cost = 0.0;
    for &(wx, wy) in waypoints {
        let bearing = (wy - y).atan2(wx - x);
        let mut err = bearing - heading;
        while err > PI {
            err -= TAU;
        }
        while err <= -PI {
            err += TAU;
        }
        cost += err * err;
    }
    cost
}

pub fn check() -> Result<(), String> {
    let wps = [(3.0, 1.0), (-2.0, 2.5), (0.5, -4.0)];
    for p in [[0.0, 0.0, 0.3], [1.0, -0.5, 3.0]] {
        let f = |q: &[f64]| atan2_heading_jvp(q[0], q[1], q[2], &wps);
        let (v, a, b, c) = atan2_heading_jvp_grad(p[0], p[1], p[2], &wps);
        crate::support::same_value("heading", v, f(&p))?;
        let want = crate::support::fd_grad(f, &p);
        crate::support::close("atan2_heading_jvp", &[a, b, c], &want, 1e-6)?;
        let (_, jt) = atan2_heading_jvp_jvp(p[0], p[1], p[2], &wps, 0.4, -1.0, 0.25);
        crate::support::close("heading jvp", &[jt], &[0.4 * want[0] - want[1] + 0.25 * want[2]], 1e-6)?;
    }
    Ok(())
}
