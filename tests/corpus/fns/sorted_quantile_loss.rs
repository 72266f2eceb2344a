use autograd::differentiable;

/// Conditional value-at-risk of simulated losses: sort a copy, average
/// the worst tail.
#[differentiable]
pub fn sorted_quantile_loss(losses: &[f64], #[constant] tail: usize) -> f64 {
    let mut sorted = losses.to_vec();
    sorted.sort_by(|a, b| b.partial_cmp(a).unwrap());
    sorted[..tail].iter().sum::<f64>() / tail as f64
}

pub fn check() -> Result<(), String> {
    for l in [vec![0.3, 1.9, -0.4, 1.2, 0.8], vec![2.0, -1.0, 0.5, 0.25]] {
        let (v, g) = sorted_quantile_loss_grad(&l, 2);
        crate::support::same_value("sorted_quantile_loss", v, sorted_quantile_loss(&l, 2))?;
        let want = crate::support::fd_grad(|q| sorted_quantile_loss(q, 2), &l);
        crate::support::close("sorted_quantile_loss", &g, &want, 1e-6)?;
    }
    Ok(())
}
