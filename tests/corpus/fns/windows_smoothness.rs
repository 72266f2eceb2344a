use autograd::differentiable;

/// Total squared first difference (a smoothness penalty) with windows(2).
#[differentiable]
pub fn windows_smoothness(x: &[f64]) -> f64 {
    x.windows(2).map(|w| (w[1] - w[0]).powi(2)).sum()
}

pub fn check() -> Result<(), String> {
    for x in [vec![0.5, 1.3, -0.7, 2.0], vec![1.1, 0.2, 0.9, -0.4]] {
        let (v, g) = windows_smoothness_grad(&x);
        crate::support::same_value("windows_smoothness", v, windows_smoothness(&x))?;
        let want = crate::support::fd_grad(|q| windows_smoothness(q), &x);
        crate::support::close("windows_smoothness", &g, &want, 1e-6)?;
    }
    Ok(())
}
