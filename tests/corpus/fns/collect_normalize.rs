use autograd::differentiable;

/// Normalize to unit sum with collect, then a log score.
#[differentiable]
pub fn collect_normalize(x: &[f64]) -> f64 {
    let total: f64 = x.iter().map(|v| v * v).sum();
    let probs: Vec<f64> = x.iter().map(|v| v * v / total).collect();
    probs.iter().enumerate().map(|(i, p)| (i as f64 + 1.0) * p).sum()
}

pub fn check() -> Result<(), String> {
    for x in [vec![0.5, 1.3, -0.7, 2.0], vec![1.1, 0.2, 0.9, -0.4]] {
        let (v, g) = collect_normalize_grad(&x);
        crate::support::same_value("collect_normalize", v, collect_normalize(&x))?;
        let want = crate::support::fd_grad(|q| collect_normalize(q), &x);
        crate::support::close("collect_normalize", &g, &want, 1e-6)?;
    }
    Ok(())
}
