use autograd::differentiable;

/// Monte Carlo European call over fixed normal draws: pathwise deltas come from the gradient.
#[differentiable]
pub fn mc_european_pathwise(s0: f64, k: f64, r: f64, sigma: f64, t: f64, #[constant] normals: &[f64]) -> f64 {
    let drift = (r - 0.5 * sigma * sigma) * t;
    let vol = sigma * t.sqrt();
    let mut total = 0.0;
    for z in normals {
        let st = s0 * (drift + vol * z).exp();
        if st > k {
            total += st - k;
        }
    }
    (-r * t).exp() * total / normals.len() as f64
}

pub fn check() -> Result<(), String> {
    // No draw may put a path exactly at the strike (z = -0.05 does at the
    // first point: drift + vol·z = 0), where differences straddle the kink.
    let zs = [0.1, -0.7, 1.3, 0.45, -1.9, 2.2, 0.8, -0.15];
    for p in [[100.0, 100.0, 0.03, 0.2, 1.0], [90.0, 80.0, 0.01, 0.3, 0.5]] {
        let (v, a, b, c, d, e) = mc_european_pathwise_grad(p[0], p[1], p[2], p[3], p[4], &zs);
        crate::support::same_value("mc", v, mc_european_pathwise(p[0], p[1], p[2], p[3], p[4], &zs))?;
        let want = crate::support::fd_grad(|q| mc_european_pathwise(q[0], q[1], q[2], q[3], q[4], &zs), &p);
        crate::support::close("mc_european_pathwise", &[a, b, c, d, e], &want, 1e-6)?;
    }
    Ok(())
}
