use autograd::differentiable;
use nalgebra::{Matrix2, Vector2};

/// Log-likelihood of a constant-velocity Kalman filter (position observed)
/// as a function of the log process and log measurement noise, written
/// with nalgebra 2×2 matrices.
#[differentiable]
pub fn kalman_cv_matrix2_loglik(log_q: f64, log_r: f64, #[constant] zs: &[f64], #[constant] dt: f64) -> f64 {
    let q = log_q.exp();
    let r = log_r.exp();
    let f = Matrix2::new(1.0, dt, 0.0, 1.0);
    let qm = Matrix2::new(dt.powi(3) / 3.0, dt * dt / 2.0, dt * dt / 2.0, dt) * q;
    let h = Vector2::new(1.0, 0.0);
    let mut x = Vector2::new(zs[0], 0.0);
    let mut p = Matrix2::new(r, 0.0, 0.0, 10.0);
    let mut ll = 0.0;
    for &z in &zs[1..] {
        x = f * x;
        p = f * p * f.transpose() + qm;
        let s = h.dot(&(p * h)) + r;
        let innov = z - h.dot(&x);
        let k = p * h / s;
        x += k * innov;
        p = (Matrix2::identity() - k * h.transpose()) * p;
        ll -= 0.5 * ((2.0 * std::f64::consts::PI * s).ln() + innov * innov / s);
    }
    ll
}

pub fn check() -> Result<(), String> {
    let zs = [0.0, 0.12, 0.31, 0.38, 0.62, 0.71, 0.95, 1.02, 1.30, 1.41];
    for p in [[-2.0, -3.0], [-0.5, -1.5]] {
        let (v, dq, dr) = kalman_cv_matrix2_loglik_grad(p[0], p[1], &zs, 0.5);
        crate::support::same_value("kalman_cv", v, kalman_cv_matrix2_loglik(p[0], p[1], &zs, 0.5))?;
        let want = crate::support::fd_grad(|x| kalman_cv_matrix2_loglik(x[0], x[1], &zs, 0.5), &p);
        crate::support::close("kalman_cv_matrix2_loglik", &[dq, dr], &want, 1e-6)?;
    }
    Ok(())
}
