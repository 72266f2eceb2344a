use autograd::differentiable;
use nalgebra::DMatrix;

/// Frobenius misfit of a low-rank factorisation, XᵀX against a target
/// Gram matrix, with `transpose() *` on `DMatrix`.
#[differentiable(jvp)]
pub fn dmatrix_transpose_gram_jvp(x: &DMatrix<f64>, #[constant] target: &DMatrix<f64>) -> f64 {
    let gram = x.transpose() * x;
    let diff = gram - target;
    diff.norm_squared()
}

pub fn check() -> Result<(), String> {
    let x = DMatrix::from_row_slice(2, 3, &[1.0, 0.2, -0.3, 0.5, 0.9, 0.4]);
    let target = DMatrix::from_row_slice(3, 3, &[1.0, 0.5, 0.0, 0.5, 1.0, 0.3, 0.0, 0.3, 0.4]);
    let (v, g) = dmatrix_transpose_gram_jvp_grad(&x, &target);
    crate::support::same_value("gram", v, dmatrix_transpose_gram_jvp(&x, &target))?;
    let want = crate::support::fd_grad(|q| dmatrix_transpose_gram_jvp(&DMatrix::from_column_slice(2, 3, q), &target), x.as_slice());
    crate::support::close("dmatrix_transpose_gram_jvp", g.as_slice(), &want, 1e-6)?;
    let dir = DMatrix::from_row_slice(2, 3, &[0.1, 0.0, -0.2, 0.3, 0.5, 0.0]);
    let (_, jt) = dmatrix_transpose_gram_jvp_jvp(&x, &target, &dir);
    let dot: f64 = want.iter().zip(dir.as_slice()).map(|(a, b)| a * b).sum();
    crate::support::close("gram jvp", &[jt], &[dot], 1e-6)
}
