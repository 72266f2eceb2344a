use autograd::differentiable;

/// Softmax cross-entropy of logits against a class index.
#[differentiable]
pub fn cross_entropy(logits: &[f64], label: usize) -> f64 {
    let max = logits.iter().fold(f64::NEG_INFINITY, |m, &z| m.max(z));
    let mut sum = 0.0;
    for z in logits {
        sum += (z - max).exp();
    }
    -(logits[label] - max - sum.ln())
}

pub fn check() -> Result<(), String> {
    for (x, y) in [(vec![1.0, 2.0, 0.5], 0), (vec![-0.3, 0.1, 2.2, 1.0], 2)] {
        let (v, g) = cross_entropy_grad(&x, y);
        crate::support::same_value("ce", v, cross_entropy(&x, y))?;
        let want = crate::support::fd_grad(|q| cross_entropy(q, y), &x);
        crate::support::close("cross_entropy", &g, &want, 1e-6)?;
    }
    Ok(())
}
