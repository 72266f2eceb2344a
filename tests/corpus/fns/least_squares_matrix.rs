use autograd::differentiable;
use nalgebra::{DMatrix, DVector};

/// ½‖A x − b‖² with nalgebra products.
#[differentiable]
pub fn least_squares_matrix(x: &DVector<f64>, #[constant] a: &DMatrix<f64>, #[constant] b: &DVector<f64>) -> f64 {
    let r = a * x - b;
    0.5 * r.norm_squared()
}

pub fn check() -> Result<(), String> {
    let a = DMatrix::from_row_slice(3, 2, &[1.0, 2.0, -0.5, 0.3, 0.7, 1.1]);
    let b = DVector::from_vec(vec![0.5, -1.0, 2.0]);
    for x in [vec![0.1, 0.2], vec![-1.0, 3.0]] {
        let vx = DVector::from_vec(x.clone());
        let (v, g) = least_squares_matrix_grad(&vx, &a, &b);
        crate::support::same_value("ls", v, least_squares_matrix(&vx, &a, &b))?;
        let want = crate::support::fd_grad(|q| least_squares_matrix(&DVector::from_column_slice(q), &a, &b), &x);
        crate::support::close("least_squares_matrix", g.as_slice(), &want, 1e-6)?;
    }
    Ok(())
}
