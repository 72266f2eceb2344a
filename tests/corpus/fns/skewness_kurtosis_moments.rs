use autograd::differentiable;

/// Sample skewness and excess kurtosis of returns, combined into a
/// Jarque–Bera-like statistic; moments by `iter().sum::<f64>() / n as f64`.
#[differentiable]
pub fn skewness_kurtosis_moments(r: &[f64]) -> f64 {
    let n = r.len();
    let mean = r.iter().sum::<f64>() / n as f64;
    let m2 = r.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
    let m3 = r.iter().map(|x| (x - mean).powi(3)).sum::<f64>() / n as f64;
    let m4 = r.iter().map(|x| (x - mean).powi(4)).sum::<f64>() / n as f64;
    let skew = m3 / m2.powf(1.5);
    let kurt = m4 / (m2 * m2) - 3.0;
    n as f64 / 6.0 * (skew * skew + 0.25 * kurt * kurt)
}

pub fn check() -> Result<(), String> {
    let r = vec![0.01, -0.02, 0.015, 0.03, -0.045, 0.002, 0.011, -0.007];
    let (v, g) = skewness_kurtosis_moments_grad(&r);
    crate::support::same_value("jb", v, skewness_kurtosis_moments(&r))?;
    crate::support::close("skewness_kurtosis_moments", &g, &crate::support::fd_grad(skewness_kurtosis_moments, &r), 1e-6)
}
