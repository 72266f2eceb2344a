use autograd::differentiable;
use nalgebra::{DMatrix, DVector};

/// Risk-parity objective for a three-asset book: squared deviations of each
/// asset's share of portfolio variance from one third.
#[differentiable]
pub fn risk_parity_dvector_from_vec(w_equity: f64, w_bonds: f64, w_gold: f64, #[constant] cov: &DMatrix<f64>) -> f64 {
    let w = DVector::from_vec(vec![w_equity, w_bonds, w_gold]);
    let marginal = cov * &w;
    let variance = w.dot(&marginal);
    let mut obj = 0.0;
    for i in 0..3 {
        let share = w[i] * marginal[i] / variance;
        obj += (share - 1.0 / 3.0).powi(2);
    }
    obj
}

pub fn check() -> Result<(), String> {
    let cov = DMatrix::from_row_slice(3, 3, &[0.040, -0.002, 0.004, -0.002, 0.006, 0.001, 0.004, 0.001, 0.025]);
    for p in [[0.3, 0.5, 0.2], [0.6, 0.1, 0.3]] {
        let (v, de, db, dg) = risk_parity_dvector_from_vec_grad(p[0], p[1], p[2], &cov);
        crate::support::same_value("risk_parity", v, risk_parity_dvector_from_vec(p[0], p[1], p[2], &cov))?;
        let want = crate::support::fd_grad(|q| risk_parity_dvector_from_vec(q[0], q[1], q[2], &cov), &p);
        crate::support::close("risk_parity_dvector_from_vec", &[de, db, dg], &want, 1e-6)?;
    }
    Ok(())
}
