use autograd::differentiable;

/// Constant-velocity Kalman filter with a 2×2 covariance as nested arrays;
/// returns the negative log-likelihood of position measurements.
#[differentiable]
pub fn kalman_cv_nested_arrays(q: f64, r: f64, #[constant] zs: &[f64], #[constant] dt: f64) -> f64 {
    let mut x = [zs[0], 0.0];
    let mut p = [[1.0, 0.0], [0.0, 1.0]];
    let mut nll = 0.0;
    for &z in &zs[1..] {
        // predict
        x = [x[0] + dt * x[1], x[1]];
        let p00 = p[0][0] + dt * (p[1][0] + p[0][1]) + dt * dt * p[1][1] + q * dt.powi(3) / 3.0;
        let p01 = p[0][1] + dt * p[1][1] + q * dt * dt / 2.0;
        let p11 = p[1][1] + q * dt;
        p = [[p00, p01], [p01, p11]];
        // update
        let s = p[0][0] + r;
        let y = z - x[0];
        nll += 0.5 * (s.ln() + y * y / s);
        let k = [p[0][0] / s, p[1][0] / s];
        x = [x[0] + k[0] * y, x[1] + k[1] * y];
        p = [
            [(1.0 - k[0]) * p[0][0], (1.0 - k[0]) * p[0][1]],
            [p[1][0] - k[1] * p[0][0], p[1][1] - k[1] * p[0][1]],
        ];
    }
    nll
}

pub fn check() -> Result<(), String> {
    let zs = [0.0, 0.9, 2.1, 2.9, 4.2, 5.1];
    for x in [[0.1, 0.2], [0.5, 0.05]] {
        let (v, a, b) = kalman_cv_nested_arrays_grad(x[0], x[1], &zs, 1.0);
        crate::support::same_value("kcv", v, kalman_cv_nested_arrays(x[0], x[1], &zs, 1.0))?;
        let want = crate::support::fd_grad(|y| kalman_cv_nested_arrays(y[0], y[1], &zs, 1.0), &x);
        crate::support::close("kalman_cv_nested_arrays", &[a, b], &want, 1e-6)?;
    }
    Ok(())
}
