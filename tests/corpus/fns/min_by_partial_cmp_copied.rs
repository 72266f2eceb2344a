use autograd::differentiable;

/// Distance to the nearest centre, with `min_by` and `partial_cmp`, then
/// a soft penalty on the spread.
#[differentiable]
pub fn min_by_partial_cmp_copied(centres: &[f64], #[constant] x: f64) -> f64 {
    let d: Vec<f64> = centres.iter().map(|c| (x - c).powi(2)).collect();
    let best = d.iter().copied().min_by(|a, b| a.partial_cmp(b).unwrap()).unwrap_or(0.0);
    let mean = d.iter().sum::<f64>() / d.len() as f64;
    best + 0.1 * mean
}

pub fn check() -> Result<(), String> {
    for c in [vec![0.3, 1.9, -0.4], vec![2.0, -1.0, 0.7, 0.1]] {
        let (v, g) = min_by_partial_cmp_copied_grad(&c, 0.5);
        crate::support::same_value("min_by", v, min_by_partial_cmp_copied(&c, 0.5))?;
        let want = crate::support::fd_grad(|q| min_by_partial_cmp_copied(q, 0.5), &c);
        crate::support::close("min_by_partial_cmp_copied", &g, &want, 1e-6)?;
    }
    Ok(())
}
