use autograd::differentiable;

/// Mean and population standard deviation in one pass over the data.
#[differentiable]
pub fn mean_std(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    (mean, var.sqrt())
}

/// Sum of squared z-scores above a threshold, smoothed.
#[differentiable]
pub fn zscore_mean_std_helper(x: &[f64], #[constant] threshold: f64) -> f64 {
    let (mu, sigma) = mean_std(x);
    let mut total = 0.0;
    for &v in x {
        let z = (v - mu) / sigma;
        total += (z - threshold).exp().ln_1p();
    }
    total
}

pub fn check() -> Result<(), String> {
    for x in [vec![0.5, 1.3, -0.7, 2.0], vec![1.1, 0.2, 0.9, -0.4, 3.0]] {
        let (v, g) = zscore_mean_std_helper_grad(&x, 0.5);
        crate::support::same_value("z", v, zscore_mean_std_helper(&x, 0.5))?;
        let want = crate::support::fd_grad(|q| zscore_mean_std_helper(q, 0.5), &x);
        crate::support::close("zscore_mean_std_helper", &g, &want, 1e-6)?;
    }
    Ok(())
}
