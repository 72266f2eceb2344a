use autograd::differentiable;

/// Weighted squared residuals of a line, three slices zipped.
#[differentiable]
pub fn zip3_weighted_residual(slope: f64, intercept: f64, #[constant] x: &[f64], #[constant] y: &[f64], #[constant] w: &[f64]) -> f64 {
    x.iter()
        .zip(y.iter())
        .zip(w.iter())
        .map(|((xi, yi), wi)| wi * (yi - slope * xi - intercept).powi(2))
        .sum::<f64>()
}

pub fn check() -> Result<(), String> {
    let x = [0.0, 1.0, 2.0, 3.0];
    let y = [0.1, 1.2, 1.9, 3.2];
    let w = [1.0, 0.5, 2.0, 1.0];
    for p in [[1.0, 0.0], [0.7, 0.4]] {
        let (v, a, b) = zip3_weighted_residual_grad(p[0], p[1], &x, &y, &w);
        crate::support::same_value("zip3", v, zip3_weighted_residual(p[0], p[1], &x, &y, &w))?;
        let want = crate::support::fd_grad(|q| zip3_weighted_residual(q[0], q[1], &x, &y, &w), &p);
        crate::support::close("zip3_weighted_residual", &[a, b], &want, 1e-6)?;
    }
    Ok(())
}
