use autograd::differentiable;

/// Unbiased sample variance; fewer than two points have none.
#[differentiable]
pub fn sample_variance_early_return(x: &[f64]) -> f64 {
    let n = x.len();
    if n < 2 {
        return 0.0;
    }
    let mean = x.iter().sum::<f64>() / n as f64;
    x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1) as f64
}

pub fn check() -> Result<(), String> {
    for x in [vec![0.5, 1.3, -0.7, 2.0], vec![1.1, 0.2, 0.9], vec![4.0]] {
        let (v, g) = sample_variance_early_return_grad(&x);
        crate::support::same_value("var", v, sample_variance_early_return(&x))?;
        let want = crate::support::fd_grad(|q| sample_variance_early_return(q), &x);
        crate::support::close("sample_variance_early_return", &g, &want, 1e-6)?;
    }
    Ok(())
}
