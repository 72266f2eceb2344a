use autograd::differentiable;

/// Angle and angular velocity of a pendulum.
#[derive(Clone, Copy, Debug)]
struct State {
    theta: f64,
    omega: f64,
}

/// Mechanical energy per unit mass of a damped pendulum after integrating
/// to `t_end` with the explicit midpoint method; the state is a local
/// struct rebuilt at every step.
#[differentiable]
pub fn pendulum_midpoint_state(theta0: f64, omega0: f64, length: f64, damping: f64, #[constant] t_end: f64) -> f64 {
    let g = 9.81;
    let dt = 0.01;
    let mut s = State { theta: theta0, omega: omega0 };
    let mut t = 0.0;
    while t < t_end {
        let alpha = -g / length * s.theta.sin() - damping * s.omega;
        let mid = State {
            theta: s.theta + 0.5 * dt * s.omega,
            omega: s.omega + 0.5 * dt * alpha,
        };
        let alpha_mid = -g / length * mid.theta.sin() - damping * mid.omega;
        s = State {
            theta: s.theta + dt * mid.omega,
            omega: s.omega + dt * alpha_mid,
        };
        t += dt;
    }
    0.5 * length * length * s.omega * s.omega + g * length * (1.0 - s.theta.cos())
}

pub fn check() -> Result<(), String> {
    for p in [[0.8, 0.0, 1.0, 0.2], [0.3, -1.2, 0.7, 0.05]] {
        let (v, dth, dom, dl, dd) = pendulum_midpoint_state_grad(p[0], p[1], p[2], p[3], 2.0);
        crate::support::same_value("pendulum", v, pendulum_midpoint_state(p[0], p[1], p[2], p[3], 2.0))?;
        let want = crate::support::fd_grad(|q| pendulum_midpoint_state(q[0], q[1], q[2], q[3], 2.0), &p);
        crate::support::close("pendulum_midpoint_state", &[dth, dom, dl, dd], &want, 1e-6)?;
    }
    Ok(())
}
