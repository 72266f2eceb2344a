use autograd::differentiable;

/// Cross-entropy with label smoothing over logits for one example.
#[differentiable]
pub fn label_smoothing_ce(logits: &[f64], #[constant] target: usize, #[constant] eps: f64) -> f64 {
    let k = logits.len() as f64;
    let max = logits.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let lse = max + logits.iter().map(|z| (z - max).exp()).sum::<f64>().ln();
    let mut loss = 0.0;
    for (i, z) in logits.iter().enumerate() {
        let q = if i == target { 1.0 - eps + eps / k } else { eps / k };
        loss -= q * (z - lse);
    }
    loss
}

pub fn check() -> Result<(), String> {
    let x = [1.2, -0.4, 0.3, 2.0];
    let (v, g) = label_smoothing_ce_grad(&x, 2, 0.1);
    crate::support::same_value("ce", v, label_smoothing_ce(&x, 2, 0.1))?;
    let want = crate::support::fd_grad(|q| label_smoothing_ce(q, 2, 0.1), &x);
    crate::support::close("label_smoothing_ce", &g, &want, 1e-6)
}
