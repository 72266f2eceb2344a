use autograd::differentiable;

/// SIR epidemic derivative; the state comes in by reference.
#[differentiable]
pub fn sir_deriv(s: &[f64; 3], beta: f64, gamma: f64) -> [f64; 3] {
    let n = s[0] + s[1] + s[2];
    let infection = beta * s[0] * s[1] / n;
    let recovery = gamma * s[1];
    [-infection, infection - recovery, recovery]
}

/// Peak-free summary: the infected fraction after `days` explicit Euler steps.
#[differentiable]
pub fn sir_euler_ref_state(beta: f64, gamma: f64, i0: f64, #[constant] days: usize) -> f64 {
    let dt = 0.25;
    let mut state = [1.0 - i0, i0, 0.0];
    let steps = days * 4;
    for _ in 0..steps {
        let d = sir_deriv(&state, beta, gamma);
        state = [state[0] + dt * d[0], state[1] + dt * d[1], state[2] + dt * d[2]];
    }
    state[1]
}

pub fn check() -> Result<(), String> {
    for p in [[0.3, 0.1, 0.01], [0.5, 0.2, 0.05]] {
        let (v, a, b, c) = sir_euler_ref_state_grad(p[0], p[1], p[2], 20);
        crate::support::same_value("sir", v, sir_euler_ref_state(p[0], p[1], p[2], 20))?;
        let want = crate::support::fd_grad(|q| sir_euler_ref_state(q[0], q[1], q[2], 20), &p);
        crate::support::close("sir_euler_ref_state", &[a, b, c], &want, 1e-6)?;
    }
    Ok(())
}
