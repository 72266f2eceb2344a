use autograd::differentiable;
use nalgebra::{DMatrix, DVector};

/// A Gaussian negative log-likelihood whose covariance is built from
/// parameters in the body, with an explicit inverse and determinant.
#[differentiable]
pub fn matrix_chol_quadform(p: &[f64], #[constant] x: &DVector<f64>) -> f64 {
    let s = DMatrix::from_row_slice(2, 2, &[p[0] * p[0] + 0.1, p[1], p[1], p[2] * p[2] + 0.1]);
    let inv = s.clone().try_inverse().unwrap();
    let q = (x.transpose() * &inv * x)[(0, 0)];
    0.5 * q + 0.5 * s.determinant().ln()
}

pub fn check() -> Result<(), String> {
    let x = DVector::from_vec(vec![0.4, -0.3]);
    let p = [1.1, 0.2, 0.9];
    let (v, g) = matrix_chol_quadform_grad(&p, &x);
    crate::support::same_value("nll", v, matrix_chol_quadform(&p, &x))?;
    let want = crate::support::fd_grad(|q| matrix_chol_quadform(q, &x), &p);
    crate::support::close("nll", &g, &want, 1e-6)?;
    Ok(())
}
