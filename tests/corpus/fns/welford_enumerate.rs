use autograd::differentiable;

/// Welford's online variance, count from `enumerate`.
#[differentiable]
pub fn welford_enumerate(x: &[f64]) -> f64 {
    let mut mean = 0.0;
    let mut m2 = 0.0;
    for (i, &v) in x.iter().enumerate() {
        let n = (i + 1) as f64;
        let delta = v - mean;
        mean += delta / n;
        m2 += delta * (v - mean);
    }
    m2 / (x.len() - 1) as f64
}

pub fn check() -> Result<(), String> {
    for x in [vec![0.5, 1.3, -0.7, 2.0], vec![1.1, 0.2, 0.9, -0.4, 3.0]] {
        let (v, g) = welford_enumerate_grad(&x);
        crate::support::same_value("welford", v, welford_enumerate(&x))?;
        let want = crate::support::fd_grad(|q| welford_enumerate(q), &x);
        crate::support::close("welford_enumerate", &g, &want, 1e-6)?;
    }
    Ok(())
}
