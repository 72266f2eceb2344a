use autograd::differentiable;

/// One explicit Euler step of a pendulum, `[f64; 2]` in and out.
#[differentiable]
pub fn euler_step_array(state: [f64; 2], g_over_l: f64, #[constant] dt: f64) -> [f64; 2] {
    let [theta, omega] = state;
    [theta + dt * omega, omega - dt * g_over_l * theta.sin()]
}

pub fn check() -> Result<(), String> {
    for p in [[0.3, 0.1, 9.81], [1.2, -0.5, 4.0]] {
        let plain = |q: &[f64]| euler_step_array([q[0], q[1]], q[2], 0.1).to_vec();
        let jac = crate::support::fd_jacobian(plain, &p);
        for k in 0..2 {
            let (value, pullback) = euler_step_array_vjp([p[0], p[1]], p[2], 0.1);
            let mut seed = [0.0; 2];
            seed[k] = 1.0;
            let (ds, dg) = pullback(seed);
            crate::support::same_value("step", value[k], plain(&p)[k])?;
            crate::support::close(&format!("euler_step_array row {k}"), &[ds[0], ds[1], dg], &jac[k], 1e-6)?;
        }
    }
    Ok(())
}
