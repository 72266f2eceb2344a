use autograd::differentiable;

#[differentiable]
pub fn predict_update(level: f64, p: f64, z: f64, q: f64, r: f64) -> (f64, f64) {
    let p_pred = p + q;
    let gain = p_pred / (p_pred + r);
    (level + gain * (z - level), (1.0 - gain) * p_pred)
}

/// Filtered level after the last observation, state carried by destructuring assignment.
#[differentiable]
pub fn kalman_destructure_assign(q: f64, r: f64, #[constant] zs: &[f64]) -> f64 {
    let (mut level, mut p) = (zs[0], 1.0);
    for &z in &zs[1..] {
        (level, p) = predict_update(level, p, z, q, r);
    }
    level + p
}

pub fn check() -> Result<(), String> {
    let zs = [1.0, 1.3, 0.8, 1.6, 1.2];
    for x in [[0.1, 0.4], [0.5, 0.1]] {
        let (v, a, b) = kalman_destructure_assign_grad(x[0], x[1], &zs);
        crate::support::same_value("kalman", v, kalman_destructure_assign(x[0], x[1], &zs))?;
        let want = crate::support::fd_grad(|y| kalman_destructure_assign(y[0], y[1], &zs), &x);
        crate::support::close("kalman_destructure_assign", &[a, b], &want, 1e-6)?;
    }
    Ok(())
}
