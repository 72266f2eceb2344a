use autograd::differentiable;

/// Softmax cross-entropy for one example: max by fold with a closure.
#[differentiable]
pub fn softmax_ce_closure_max(logits: &[f64], #[constant] label: usize) -> f64 {
    let max = logits.iter().fold(f64::MIN, |a, &b| a.max(b));
    let denom = logits.iter().map(|l| (l - max).exp()).sum::<f64>();
    -(logits[label] - max) + denom.ln()
}

pub fn check() -> Result<(), String> {
    for (x, label) in [(vec![0.5, 1.3, -0.7, 2.0], 1), (vec![-3.0, 0.2, 0.9], 2)] {
        let (v, g) = softmax_ce_closure_max_grad(&x, label);
        crate::support::same_value("ce", v, softmax_ce_closure_max(&x, label))?;
        let want = crate::support::fd_grad(|q| softmax_ce_closure_max(q, label), &x);
        crate::support::close("softmax_ce_closure_max", &g, &want, 1e-6)?;
    }
    Ok(())
}
