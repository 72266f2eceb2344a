use autograd::differentiable;

/// Softmax (multinomial logistic) regression: mean cross-entropy over
/// constant rows plus an L2 penalty on the weights (not the biases).
/// `params` holds the `classes × features` weights row-major, then one bias
/// per class; the logits are built and shifted in a local buffer.
#[differentiable]
pub fn multinomial_logreg_l2(params: &[f64], #[constant] x: &[Vec<f64>], #[constant] labels: &[usize], #[constant] classes: usize, #[constant] lambda: f64) -> f64 {
    let d = x[0].len();
    let mut total = 0.0;
    for (xi, &label) in x.iter().zip(labels) {
        let mut logits = vec![0.0; classes];
        for (c, z) in logits.iter_mut().enumerate() {
            *z = params[classes * d + c];
            for j in 0..d {
                *z += params[c * d + j] * xi[j];
            }
        }
        let max = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut sum_exp = 0.0;
        for z in logits.iter_mut() {
            *z -= max;
            sum_exp += z.exp();
        }
        total += sum_exp.ln() - logits[label];
    }
    let penalty: f64 = params[..classes * d].iter().map(|w| w * w).sum();
    total / x.len() as f64 + 0.5 * lambda * penalty
}

pub fn check() -> Result<(), String> {
    let x = vec![vec![1.0, 0.5], vec![-0.3, 1.2], vec![0.7, -1.0], vec![-1.1, -0.4], vec![0.2, 0.3]];
    let labels = [0, 1, 2, 1, 0];
    for p in [
        vec![0.1, -0.2, 0.3, 0.4, -0.5, 0.0, 0.05, -0.1, 0.2],
        vec![1.0, 0.5, -0.7, 0.2, 0.3, -1.2, 0.0, 0.4, -0.3],
    ] {
        let (v, g) = multinomial_logreg_l2_grad(&p, &x, &labels, 3, 0.05);
        crate::support::same_value("mlogreg", v, multinomial_logreg_l2(&p, &x, &labels, 3, 0.05))?;
        let want = crate::support::fd_grad(|q| multinomial_logreg_l2(q, &x, &labels, 3, 0.05), &p);
        crate::support::close("multinomial_logreg_l2", &g, &want, 1e-6)?;
    }
    Ok(())
}
