use autograd::differentiable;

/// RK4 for the damped oscillator x'' = -ω² x - c x' with `[f64; 2]` state; returns final position.
#[differentiable]
pub fn rk4_oscillator(omega: f64, damping: f64, x0: f64, #[constant] dt: f64, #[constant] steps: usize) -> f64 {
    let rhs = |s: [f64; 2]| -> [f64; 2] { [s[1], -omega * omega * s[0] - damping * s[1]] };
    let mut state = [x0, 0.0];
    for _ in 0..steps {
        let k1 = rhs(state);
        let k2 = rhs([state[0] + 0.5 * dt * k1[0], state[1] + 0.5 * dt * k1[1]]);
        let k3 = rhs([state[0] + 0.5 * dt * k2[0], state[1] + 0.5 * dt * k2[1]]);
        let k4 = rhs([state[0] + dt * k3[0], state[1] + dt * k3[1]]);
        state[0] += dt / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]);
        state[1] += dt / 6.0 * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1]);
    }
    state[0]
}

pub fn check() -> Result<(), String> {
    for p in [[2.0, 0.1, 1.0], [1.0, 0.5, -0.5]] {
        let (v, a, b, c) = rk4_oscillator_grad(p[0], p[1], p[2], 0.05, 40);
        crate::support::same_value("rk4", v, rk4_oscillator(p[0], p[1], p[2], 0.05, 40))?;
        let want = crate::support::fd_grad(|q| rk4_oscillator(q[0], q[1], q[2], 0.05, 40), &p);
        crate::support::close("rk4_oscillator", &[a, b, c], &want, 1e-6)?;
    }
    Ok(())
}
