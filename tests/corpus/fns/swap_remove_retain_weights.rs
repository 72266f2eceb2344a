use autograd::differentiable;

/// Normalised weights after dropping the small ones with `retain`.
#[differentiable]
pub fn swap_remove_retain_weights(w: &[f64]) -> f64 {
    let mut v: Vec<f64> = w.iter().map(|x| x.exp()).collect();
    v.retain(|&x| x > 0.5);
    let total: f64 = v.iter().sum();
    v.iter().map(|x| (x / total).powi(2)).sum::<f64>()
}

pub fn check() -> Result<(), String> {
    for w in [vec![0.3, -1.9, 0.4, 0.1], vec![2.0, -1.0, 0.5]] {
        let (v, g) = swap_remove_retain_weights_grad(&w);
        crate::support::same_value("retain", v, swap_remove_retain_weights(&w))?;
        let want = crate::support::fd_grad(swap_remove_retain_weights, &w);
        crate::support::close("swap_remove_retain_weights", &g, &want, 1e-6)?;
    }
    Ok(())
}
