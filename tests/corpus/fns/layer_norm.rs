use autograd::differentiable;

/// Layer normalization followed by a weighted sum (a scalar head).
#[differentiable]
pub fn layer_norm(x: &[f64], gamma: &[f64], #[constant] head: &[f64]) -> f64 {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
    let inv = 1.0 / (var + 1e-5).sqrt();
    let mut out = 0.0;
    for i in 0..x.len() {
        out += head[i] * gamma[i] * (x[i] - mean) * inv;
    }
    out
}

pub fn check() -> Result<(), String> {
    let head = [0.3, -1.0, 0.5, 0.2];
    for (x, g) in [(vec![1.0, 2.0, 0.5, -1.0], vec![1.0, 0.9, 1.1, 1.2]), (vec![0.1, 0.3, -0.2, 0.8], vec![0.5, 1.5, 1.0, 1.0])] {
        let (v, dx, dg) = layer_norm_grad(&x, &g, &head);
        crate::support::same_value("ln", v, layer_norm(&x, &g, &head))?;
        let mut p = x.clone();
        p.extend(&g);
        let want = crate::support::fd_grad(|q| layer_norm(&q[..4], &q[4..], &head), &p);
        let mut got = dx;
        got.extend(dg);
        crate::support::close("layer_norm", &got, &want, 1e-6)?;
    }
    Ok(())
}
