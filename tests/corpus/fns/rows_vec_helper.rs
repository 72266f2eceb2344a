use autograd::differentiable;

#[differentiable]
pub fn dot(w: &[f64], x: &[f64]) -> f64 {
    w.iter().zip(x).map(|(a, b)| a * b).sum()
}

/// Logistic loss over rows stored as `Vec<Vec<f64>>`, each row passed to
/// a helper taking a slice.
#[differentiable]
pub fn rows_vec_helper(w: &[f64], #[constant] rows: &[Vec<f64>], #[constant] labels: &[f64]) -> f64 {
    let mut total = 0.0;
    for (row, &y) in rows.iter().zip(labels) {
        let z = dot(w, row);
        total += (1.0 + (-y * z).exp()).ln();
    }
    total / rows.len() as f64
}

pub fn check() -> Result<(), String> {
    let rows = vec![vec![1.0, 0.5, -0.2], vec![-0.3, 1.1, 0.4], vec![0.7, -0.9, 1.3]];
    let labels = [1.0, -1.0, 1.0];
    for w in [vec![0.1, -0.2, 0.3], vec![1.0, 0.5, -0.75]] {
        let (v, g) = rows_vec_helper_grad(&w, &rows, &labels);
        crate::support::same_value("logloss", v, rows_vec_helper(&w, &rows, &labels))?;
        let want = crate::support::fd_grad(|q| rows_vec_helper(q, &rows, &labels), &w);
        crate::support::close("rows_vec_helper", &g, &want, 1e-6)?;
    }
    Ok(())
}
