use autograd::differentiable;

/// Damped pendulum θ'' = −(g/L) sin θ − c θ' as a first-order system.
#[differentiable]
pub fn pendulum_rhs(s: [f64; 2], g_over_l: f64, damping: f64) -> [f64; 2] {
    [s[1], -g_over_l * s[0].sin() - damping * s[1]]
}

/// a + h·k, element-wise.
#[differentiable]
pub fn axpy(a: [f64; 2], h: f64, k: [f64; 2]) -> [f64; 2] {
    std::array::from_fn(|i| a[i] + h * k[i])
}

/// Angle of a damped pendulum released at rest from θ₀, after `steps` RK4 steps.
#[differentiable]
pub fn pendulum_rk4_from_fn(theta0: f64, g_over_l: f64, damping: f64, #[constant] dt: f64, #[constant] steps: usize) -> f64 {
    let mut s = [theta0, 0.0];
    for _ in 0..steps {
        let k1 = pendulum_rhs(s, g_over_l, damping);
        let k2 = pendulum_rhs(axpy(s, 0.5 * dt, k1), g_over_l, damping);
        let k3 = pendulum_rhs(axpy(s, 0.5 * dt, k2), g_over_l, damping);
        let k4 = pendulum_rhs(axpy(s, dt, k3), g_over_l, damping);
        s = std::array::from_fn(|i| s[i] + dt / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]));
    }
    s[0]
}

pub fn check() -> Result<(), String> {
    for x in [[0.8, 9.81, 0.3], [2.0, 4.0, 0.1]] {
        let (v, d0, dg, dc) = pendulum_rk4_from_fn_grad(x[0], x[1], x[2], 0.01, 150);
        crate::support::same_value("pendulum", v, pendulum_rk4_from_fn(x[0], x[1], x[2], 0.01, 150))?;
        let want = crate::support::fd_grad(|q| pendulum_rk4_from_fn(q[0], q[1], q[2], 0.01, 150), &x);
        crate::support::close("pendulum_rk4_from_fn", &[d0, dg, dc], &want, 1e-6)?;
    }
    Ok(())
}
