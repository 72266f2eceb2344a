use autograd::differentiable;
use nalgebra::DMatrix;

/// Frobenius-weighted trace-like functional with `m[(i, j)]` reads.
#[differentiable]
pub fn matrix_index_loop(m: &DMatrix<f64>) -> f64 {
    let mut s = 0.0;
    for i in 0..m.nrows() {
        for j in 0..m.ncols() {
            let w = if i == j { 2.0 } else { 0.5 };
            s += w * m[(i, j)] * m[(i, j)];
        }
    }
    s.sqrt()
}

pub fn check() -> Result<(), String> {
    for vals in [vec![1.0, 2.0, 3.0, 4.0], vec![0.5, -1.0, 0.2, 0.7]] {
        let m = DMatrix::from_column_slice(2, 2, &vals);
        let (v, g) = matrix_index_loop_grad(&m);
        crate::support::same_value("mat", v, matrix_index_loop(&m))?;
        let want = crate::support::fd_grad(|q| matrix_index_loop(&DMatrix::from_column_slice(2, 2, q)), &vals);
        crate::support::close("matrix_index_loop", g.as_slice(), &want, 1e-6)?;
    }
    Ok(())
}
