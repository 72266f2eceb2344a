use autograd::differentiable;
use nalgebra::{DMatrix, DVector};

/// xᵀ Σ x for a portfolio variance, with transpose and products.
#[differentiable]
pub fn quadratic_form(w: &DVector<f64>, cov: &DMatrix<f64>) -> f64 {
    (w.transpose() * cov * w)[(0, 0)]
}

pub fn check() -> Result<(), String> {
    let cov = DMatrix::from_row_slice(3, 3, &[0.04, 0.01, 0.0, 0.01, 0.09, 0.02, 0.0, 0.02, 0.16]);
    for w in [vec![0.3, 0.3, 0.4], vec![0.5, -0.2, 0.7]] {
        let vw = DVector::from_vec(w.clone());
        let (v, gw, gc) = quadratic_form_grad(&vw, &cov);
        crate::support::same_value("var", v, quadratic_form(&vw, &cov))?;
        let mut p = w.clone();
        p.extend(cov.iter());
        let want = crate::support::fd_grad(|q| quadratic_form(&DVector::from_column_slice(&q[..3]), &DMatrix::from_column_slice(3, 3, &q[3..])), &p);
        let mut got: Vec<f64> = gw.iter().copied().collect();
        got.extend(gc.iter());
        crate::support::close("quadratic_form", &got, &want, 1e-6)?;
    }
    Ok(())
}
