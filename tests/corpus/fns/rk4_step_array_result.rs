use autograd::differentiable;

/// Van der Pol right-hand side.
#[differentiable]
pub fn vdp(s: [f64; 2], mu: f64) -> [f64; 2] {
    [s[1], mu * (1.0 - s[0] * s[0]) * s[1] - s[0]]
}

/// One RK4 step of the Van der Pol oscillator, the new state as the result.
#[differentiable]
pub fn rk4_step_array_result(state: [f64; 2], mu: f64, #[constant] h: f64) -> [f64; 2] {
    let k1 = vdp(state, mu);
    let k2 = vdp([state[0] + 0.5 * h * k1[0], state[1] + 0.5 * h * k1[1]], mu);
    let k3 = vdp([state[0] + 0.5 * h * k2[0], state[1] + 0.5 * h * k2[1]], mu);
    let k4 = vdp([state[0] + h * k3[0], state[1] + h * k3[1]], mu);
    let mut next = state;
    for i in 0..2 {
        next[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
    }
    next
}

pub fn check() -> Result<(), String> {
    for p in [[2.0, 0.0, 1.0], [0.5, -1.0, 3.0]] {
        let plain = |q: &[f64]| rk4_step_array_result([q[0], q[1]], q[2], 0.1).to_vec();
        let jac = crate::support::fd_jacobian(plain, &p);
        let (value, jm) = rk4_step_array_result_jacobian([p[0], p[1]], p[2], 0.1);
        for k in 0..2 {
            crate::support::same_value("rk4 step", value[k], plain(&p)[k])?;
            let row: Vec<f64> = (0..3).map(|j| jm[(k, j)]).collect();
            crate::support::close(&format!("rk4_step_array_result row {k}"), &row, &jac[k], 1e-6)?;
        }
    }
    Ok(())
}
