use autograd::differentiable;

/// Interleaved (x, y) points; sum of their distances from the origin.
#[differentiable]
pub fn chunks_exact_pairs(xy: &[f64]) -> f64 {
    xy.chunks_exact(2).map(|p| p[0].hypot(p[1])).sum()
}

pub fn check() -> Result<(), String> {
    for x in [vec![0.5, 1.3, -0.7, 2.0], vec![3.0, 4.0, 1.0, -1.0, 0.2, 0.9]] {
        let (v, g) = chunks_exact_pairs_grad(&x);
        crate::support::same_value("chunks", v, chunks_exact_pairs(&x))?;
        let want = crate::support::fd_grad(|q| chunks_exact_pairs(q), &x);
        crate::support::close("chunks_exact_pairs", &g, &want, 1e-6)?;
    }
    Ok(())
}
