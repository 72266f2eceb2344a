use autograd::differentiable;

/// Mean logistic loss with three features per row as `&[[f64; 3]]`, rows
/// and labels walked together with `for (a, b) in x.iter().zip(y.iter())`,
/// plus an L2 penalty.
#[differentiable]
pub fn logreg_array3_features(w: &[f64; 3], bias: f64, #[constant] x: &[[f64; 3]], #[constant] y: &[f64], #[constant] lambda: f64) -> f64 {
    let mut loss = 0.0;
    for (row, &label) in x.iter().zip(y.iter()) {
        let z: f64 = row.iter().zip(w.iter()).map(|(a, b)| a * b).sum::<f64>() + bias;
        let p = 1.0 / (1.0 + (-z).exp());
        loss -= label * p.ln() + (1.0 - label) * (1.0 - p).ln();
    }
    loss / x.len() as f64 + lambda * w.iter().map(|wi| wi * wi).sum::<f64>()
}

pub fn check() -> Result<(), String> {
    let x = [[0.5, 1.0, -0.3], [1.2, -0.4, 0.8], [-0.7, 0.2, 0.1], [0.0, -1.1, 0.6], [0.9, 0.3, -1.0]];
    let y = [1.0, 0.0, 1.0, 0.0, 1.0];
    for p in [[0.2, -0.5, 0.3, 0.1], [1.0, 0.4, -0.8, -0.2]] {
        let w = [p[0], p[1], p[2]];
        let (v, dw, db) = logreg_array3_features_grad(&w, p[3], &x, &y, 0.01);
        crate::support::same_value("logreg", v, logreg_array3_features(&w, p[3], &x, &y, 0.01))?;
        let want = crate::support::fd_grad(|q| logreg_array3_features(&[q[0], q[1], q[2]], q[3], &x, &y, 0.01), &p);
        crate::support::close("logreg_array3_features", &[dw[0], dw[1], dw[2], db], &want, 1e-6)?;
    }
    Ok(())
}
