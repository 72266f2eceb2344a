use autograd::differentiable;

/// Tempered log-sum-exp, stabilised by the maximum found with
/// `max_by(|a, b| a.partial_cmp(b).unwrap())`.
#[differentiable]
pub fn lse_max_by_partial_cmp(scores: &[f64], temperature: f64) -> f64 {
    let m = *scores.iter().max_by(|a, b| a.partial_cmp(b).unwrap()).unwrap();
    let s: f64 = scores.iter().map(|&x| ((x - m) / temperature).exp()).sum();
    m + temperature * s.ln()
}

pub fn check() -> Result<(), String> {
    for (x, t) in [(vec![0.5, 2.0, -1.0, 1.2], 1.0), (vec![3.0, 2.9, -0.4], 0.5)] {
        let (v, dx, dt) = lse_max_by_partial_cmp_grad(&x, t);
        crate::support::same_value("lse", v, lse_max_by_partial_cmp(&x, t))?;
        let n = x.len();
        let mut p = x.clone();
        p.push(t);
        let want = crate::support::fd_grad(|q| lse_max_by_partial_cmp(&q[..n], q[n]), &p);
        let mut got = dx.clone();
        got.push(dt);
        crate::support::close("lse_max_by_partial_cmp", &got, &want, 1e-6)?;
    }
    Ok(())
}
