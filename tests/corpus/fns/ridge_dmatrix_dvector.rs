use autograd::differentiable;
use nalgebra::{DMatrix, DVector};

/// Ridge objective: ||X w - y||² / n + λ ||w||².
#[differentiable]
pub fn ridge_dmatrix_dvector(w: &DVector<f64>, #[constant] x: &DMatrix<f64>, #[constant] y: &DVector<f64>, #[constant] lambda: f64) -> f64 {
    let resid = x * w - y;
    resid.dot(&resid) / y.len() as f64 + lambda * w.norm_squared()
}

pub fn check() -> Result<(), String> {
    let x = DMatrix::from_row_slice(4, 2, &[1.0, 0.5, -0.3, 2.0, 0.8, 0.1, 1.5, -1.0]);
    let y = DVector::from_vec(vec![1.0, 0.5, -0.2, 2.0]);
    for w in [vec![0.3, -0.1], vec![1.5, 0.7]] {
        let vw = DVector::from_vec(w.clone());
        let (v, g) = ridge_dmatrix_dvector_grad(&vw, &x, &y, 0.1);
        crate::support::same_value("ridge", v, ridge_dmatrix_dvector(&vw, &x, &y, 0.1))?;
        let want = crate::support::fd_grad(|q| ridge_dmatrix_dvector(&DVector::from_column_slice(q), &x, &y, 0.1), &w);
        let got: Vec<f64> = g.iter().copied().collect();
        crate::support::close("ridge_dmatrix_dvector", &got, &want, 1e-6)?;
    }
    Ok(())
}
