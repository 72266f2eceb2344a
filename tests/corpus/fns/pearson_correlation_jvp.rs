use autograd::differentiable;

/// Pearson correlation between model outputs and observations, statistics
/// by `iter().sum::<f64>() / n as f64`, in forward mode too.
#[differentiable(jvp)]
pub fn pearson_correlation_jvp(pred: &[f64], #[constant] obs: &[f64]) -> f64 {
    let n = pred.len() as f64;
    let mp = pred.iter().sum::<f64>() / n;
    let mo = obs.iter().sum::<f64>() / n;
    let mut cov = 0.0;
    let mut vp = 0.0;
    let mut vo = 0.0;
    for (p, o) in pred.iter().zip(obs.iter()) {
        cov += (p - mp) * (o - mo);
        vp += (p - mp) * (p - mp);
        vo += (o - mo) * (o - mo);
    }
    cov / (vp * vo).sqrt()
}

pub fn check() -> Result<(), String> {
    let obs = [1.0, 2.1, 2.9, 4.2, 5.1];
    let x = vec![1.2, 1.9, 3.3, 3.8, 5.5];
    let (v, g) = pearson_correlation_jvp_grad(&x, &obs);
    crate::support::same_value("corr", v, pearson_correlation_jvp(&x, &obs))?;
    let want = crate::support::fd_grad(|q| pearson_correlation_jvp(q, &obs), &x);
    crate::support::close("pearson_correlation_jvp", &g, &want, 1e-6)?;
    let dir = [0.1, -0.3, 0.7, 0.0, 1.0];
    let (_, jt) = pearson_correlation_jvp_jvp(&x, &obs, &dir);
    let dot: f64 = want.iter().zip(&dir).map(|(a, b)| a * b).sum();
    crate::support::close("corr jvp", &[jt], &[dot], 1e-6)
}
