use autograd::differentiable;
use nalgebra::{Matrix3, Vector3};

/// Mean-variance utility of three weights, covariance as a `Matrix3`;
/// the Hessian is −γ·Σ (constant), checked in closed form.
#[differentiable(hessian)]
pub fn portfolio_matrix3_hessian(w1: f64, w2: f64, w3: f64, #[constant] gamma: f64) -> f64 {
    let sigma = Matrix3::new(0.04, 0.006, 0.002, 0.006, 0.09, 0.01, 0.002, 0.01, 0.16);
    let mu = Vector3::new(0.05, 0.07, 0.1);
    let w = Vector3::new(w1, w2, w3);
    mu.dot(&w) - 0.5 * gamma * w.dot(&(sigma * w))
}

pub fn check() -> Result<(), String> {
    let p = [0.3, 0.5, 0.2];
    let f = |q: &[f64]| portfolio_matrix3_hessian(q[0], q[1], q[2], 4.0);
    let (v, g, h) = portfolio_matrix3_hessian_hessian(p[0], p[1], p[2], 4.0);
    crate::support::same_value("mv", v, f(&p))?;
    crate::support::close("mv grad", g.as_slice(), &crate::support::fd_grad(f, &p), 1e-6)?;
    let sigma = [[0.04, 0.006, 0.002], [0.006, 0.09, 0.01], [0.002, 0.01, 0.16]];
    for i in 0..3 {
        let want: Vec<f64> = (0..3).map(|j| -4.0 * sigma[i][j]).collect();
        crate::support::close(&format!("mv hessian row {i}"), &[h[(i, 0)], h[(i, 1)], h[(i, 2)]], &want, 1e-12)?;
    }
    Ok(())
}
