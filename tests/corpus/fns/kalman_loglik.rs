use autograd::differentiable;

/// Log-likelihood of a local-level model by the scalar Kalman filter.
#[differentiable]
pub fn kalman_loglik(q: f64, r: f64, #[constant] obs: &[f64]) -> f64 {
    let mut level = obs[0];
    let mut p = 1.0;
    let mut ll = 0.0;
    for &z in &obs[1..] {
        p += q;
        let s = p + r;
        let innovation = z - level;
        ll -= 0.5 * ((2.0 * std::f64::consts::PI * s).ln() + innovation * innovation / s);
        let k = p / s;
        level += k * innovation;
        p *= 1.0 - k;
    }
    ll
}

pub fn check() -> Result<(), String> {
    let obs = [1.0, 1.2, 0.9, 1.5, 1.4, 1.8, 1.6];
    for p in [[0.1, 0.2], [0.5, 0.05]] {
        let (v, dq, dr) = kalman_loglik_grad(p[0], p[1], &obs);
        crate::support::same_value("kalman", v, kalman_loglik(p[0], p[1], &obs))?;
        let want = crate::support::fd_grad(|x| kalman_loglik(x[0], x[1], &obs), &p);
        crate::support::close("kalman_loglik", &[dq, dr], &want, 1e-6)?;
    }
    Ok(())
}
