use autograd::differentiable;
use nalgebra::{DMatrix, DVector};

/// Ridge regression loss written with nalgebra: ‖Xw − y‖² + λ‖w‖².
#[differentiable]
pub fn ridge_normal_eq(w: &DVector<f64>, #[constant] x: &DMatrix<f64>, #[constant] y: &DVector<f64>, #[constant] lambda: f64) -> f64 {
    let residual = x * w - y;
    residual.norm_squared() + lambda * w.norm_squared()
}

pub fn check() -> Result<(), String> {
    let x = DMatrix::from_row_slice(4, 2, &[1.0, 0.5, 1.0, -0.3, 1.0, 1.2, 1.0, 2.0]);
    let y = DVector::from_vec(vec![1.0, 0.2, 2.1, 3.0]);
    let p = vec![0.4, 0.9];
    let (v, g) = ridge_normal_eq_grad(&DVector::from_vec(p.clone()), &x, &y, 0.1);
    crate::support::same_value("ridge", v, ridge_normal_eq(&DVector::from_vec(p.clone()), &x, &y, 0.1))?;
    let want = crate::support::fd_grad(|q| ridge_normal_eq(&DVector::from_column_slice(q), &x, &y, 0.1), &p);
    crate::support::close("ridge_normal_eq", g.as_slice(), &want, 1e-6)
}
