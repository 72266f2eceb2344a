use autograd::differentiable;
use nalgebra::{DMatrix, DVector};

/// Negative log marginal likelihood of a zero-mean Gaussian process with a
/// squared-exponential kernel, hyperparameters on the log scale; the log
/// determinant comes from `DMatrix::determinant` and the solve from the
/// inverse.
#[differentiable]
pub fn gp_dmatrix_determinant(log_ell: f64, log_sf: f64, log_sn: f64, #[constant] xs: &[f64], #[constant] ys: &[f64]) -> f64 {
    let n = xs.len();
    let ell = log_ell.exp();
    let sf2 = (2.0 * log_sf).exp();
    let sn2 = (2.0 * log_sn).exp();
    let k = DMatrix::from_fn(n, n, |i, j| {
        let r = xs[i] - xs[j];
        let noise = if i == j { sn2 } else { 0.0 };
        sf2 * (-0.5 * r * r / (ell * ell)).exp() + noise
    });
    let y = DVector::from_column_slice(ys);
    let det = k.determinant();
    let k_inv = k.try_inverse().expect("kernel matrix is positive definite");
    let alpha = &k_inv * &y;
    0.5 * y.dot(&alpha) + 0.5 * det.ln() + 0.5 * n as f64 * (2.0 * std::f64::consts::PI).ln()
}

pub fn check() -> Result<(), String> {
    let xs = [-1.5, -0.7, 0.0, 0.6, 1.4];
    let ys = [-0.9, -0.5, 0.1, 0.6, 0.8];
    for p in [[0.0, 0.0, -1.0], [-0.3, 0.2, -0.6]] {
        let (v, dl, dsf, dsn) = gp_dmatrix_determinant_grad(p[0], p[1], p[2], &xs, &ys);
        crate::support::same_value("gp", v, gp_dmatrix_determinant(p[0], p[1], p[2], &xs, &ys))?;
        let want = crate::support::fd_grad(|q| gp_dmatrix_determinant(q[0], q[1], q[2], &xs, &ys), &p);
        crate::support::close("gp_dmatrix_determinant", &[dl, dsf, dsn], &want, 1e-6)?;
    }
    Ok(())
}
