use autograd::differentiable;

/// RMSNorm (as in transformer blocks) with a learned gain, then a linear head.
#[differentiable]
pub fn rmsnorm_head(x: &[f64], gain: &[f64], head: &[f64], #[constant] eps: f64) -> f64 {
    let mean_sq = x.iter().map(|v| v * v).sum::<f64>() / x.len() as f64;
    let inv_rms = (mean_sq + eps).sqrt().recip();
    let normed: Vec<f64> = x.iter().zip(gain).map(|(v, g)| v * inv_rms * g).collect();
    normed.iter().zip(head).map(|(n, h)| n * h).sum()
}

pub fn check() -> Result<(), String> {
    for (x, g, h) in [
        (vec![0.5, -1.2, 2.0, 0.3], vec![1.0, 0.9, 1.1, 1.05], vec![0.2, -0.5, 0.7, 0.1]),
        (vec![3.0, 0.1, -0.4, -2.2], vec![0.8, 1.2, 1.0, 0.95], vec![-1.0, 0.3, 0.4, 0.6]),
    ] {
        let (v, gx, gg, gh) = rmsnorm_head_grad(&x, &g, &h, 1e-6);
        crate::support::same_value("rmsnorm", v, rmsnorm_head(&x, &g, &h, 1e-6))?;
        let mut p = x.clone();
        p.extend(&g);
        p.extend(&h);
        let want = crate::support::fd_grad(|q| rmsnorm_head(&q[..4], &q[4..8], &q[8..], 1e-6), &p);
        let mut got = gx.clone();
        got.extend(&gg);
        got.extend(&gh);
        crate::support::close("rmsnorm_head", &got, &want, 1e-6)?;
    }
    Ok(())
}
