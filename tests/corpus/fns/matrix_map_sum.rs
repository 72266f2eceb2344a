use autograd::differentiable;
use nalgebra::DMatrix;

/// Element-wise softplus of a weight matrix, summed (a regularizer).
#[differentiable]
pub fn matrix_map_sum(w: &DMatrix<f64>) -> f64 {
    w.map(|v| (1.0 + v.exp()).ln()).sum()
}

pub fn check() -> Result<(), String> {
    let vals = vec![0.5, -1.0, 2.0, 0.1, -0.3, 0.7];
    let m = DMatrix::from_column_slice(2, 3, &vals);
    let (v, g) = matrix_map_sum_grad(&m);
    crate::support::same_value("softplus", v, matrix_map_sum(&m))?;
    let want = crate::support::fd_grad(|q| matrix_map_sum(&DMatrix::from_column_slice(2, 3, q)), &vals);
    crate::support::close("matrix_map_sum", g.as_slice(), &want, 1e-6)
}
