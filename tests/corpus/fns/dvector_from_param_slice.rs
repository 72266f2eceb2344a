use autograd::differentiable;
use nalgebra::{DMatrix, DVector};

/// Ridge loss with the weights taken from a slice into a `DVector`, as
/// nalgebra users write it.
#[differentiable]
pub fn dvector_from_param_slice(w: &[f64], #[constant] x: &DMatrix<f64>, #[constant] y: &DVector<f64>) -> f64 {
    let w = DVector::from_column_slice(w);
    let r = x * &w - y;
    r.norm_squared() + 0.1 * w.norm_squared()
}

pub fn check() -> Result<(), String> {
    let x = DMatrix::from_row_slice(3, 2, &[1.0, 0.5, -0.3, 2.0, 0.7, 0.1]);
    let y = DVector::from_vec(vec![0.2, 1.0, -0.4]);
    let w = [0.3, -0.6];
    let (v, g) = dvector_from_param_slice_grad(&w, &x, &y);
    crate::support::same_value("ridge", v, dvector_from_param_slice(&w, &x, &y))?;
    let want = crate::support::fd_grad(|q| dvector_from_param_slice(q, &x, &y), &w);
    crate::support::close("ridge", &g, &want, 1e-6)?;
    Ok(())
}
