use autograd::differentiable;

/// Full-truncation Euler step of the Heston variance process.
#[differentiable]
pub fn heston_variance_step(v: f64, kappa: f64, theta: f64, xi: f64, #[constant] dt: f64, #[constant] z: f64) -> f64 {
    let v_pos = v.max(0.0);
    v + kappa * (theta - v_pos) * dt + xi * (v_pos * dt).sqrt() * z
}

pub fn check() -> Result<(), String> {
    for z in [0.4, -1.1] {
        for p in [[0.04, 2.0, 0.05, 0.3], [0.09, 1.0, 0.04, 0.6]] {
            let (val, a, b, c, d) = heston_variance_step_grad(p[0], p[1], p[2], p[3], 0.01, z);
            crate::support::same_value("heston", val, heston_variance_step(p[0], p[1], p[2], p[3], 0.01, z))?;
            let want = crate::support::fd_grad(|q| heston_variance_step(q[0], q[1], q[2], q[3], 0.01, z), &p);
            crate::support::close("heston_variance_step", &[a, b, c, d], &want, 1e-6)?;
        }
    }
    Ok(())
}
