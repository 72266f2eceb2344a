use autograd::differentiable;

/// log Σ exp(xᵢ) shifted by the maximum found with a `fold` over
/// `f64::max` as a function path, forward mode included.
#[differentiable(jvp)]
pub fn logsumexp_max_shift_jvp(logits: &[f64]) -> f64 {
    let m = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let s: f64 = logits.iter().map(|x| (x - m).exp()).sum();
    m + s.ln()
}

pub fn check() -> Result<(), String> {
    for x in [vec![0.3, -1.2, 2.5, 2.4], vec![10.0, 9.0, -3.0]] {
        let (v, g) = logsumexp_max_shift_jvp_grad(&x);
        crate::support::same_value("lse", v, logsumexp_max_shift_jvp(&x))?;
        let want = crate::support::fd_grad(logsumexp_max_shift_jvp, &x);
        crate::support::close("logsumexp_max_shift_jvp", &g, &want, 1e-6)?;
        let dir: Vec<f64> = (0..x.len()).map(|i| 0.5 - i as f64 * 0.3).collect();
        let (jv, jt) = logsumexp_max_shift_jvp_jvp(&x, &dir);
        crate::support::same_value("lse jvp", jv, v)?;
        let dot: f64 = want.iter().zip(&dir).map(|(a, b)| a * b).sum();
        crate::support::close("logsumexp jvp", &[jt], &[dot], 1e-6)?;
    }
    Ok(())
}
