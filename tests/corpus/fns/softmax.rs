use autograd::differentiable;

#[differentiable]
pub fn softmax(logits: &[f64]) -> Vec<f64> {
    let max = logits.iter().copied().fold(f64::MIN, f64::max);
    let exps: Vec<f64> = logits.iter().map(|&z| (z - max).exp()).collect();
    let total: f64 = exps.iter().sum();
    exps.iter().map(|e| e / total).collect()
}

/// Checks the pullback with each unit seed: row k of the Jacobian.
pub fn check() -> Result<(), String> {
    for x in [vec![0.2, 1.0, -0.5], vec![2.0, 2.1, 0.0, -1.0]] {
        let jac = crate::support::fd_jacobian(softmax, &x);
        for k in 0..x.len() {
            let (value, pullback) = softmax_vjp(&x);
            let mut seed = vec![0.0; x.len()];
            seed[k] = 1.0;
            let (row,) = pullback(seed);
            crate::support::same_value("softmax", value[k], softmax(&x)[k])?;
            crate::support::close(&format!("softmax row {k}"), &row, &jac[k], 1e-6)?;
        }
    }
    Ok(())
}
