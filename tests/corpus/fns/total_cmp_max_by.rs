use autograd::differentiable;

/// Log-sum-exp shifted by the largest score, found with `max_by` and
/// `total_cmp`.
#[differentiable]
pub fn total_cmp_max_by(s: &[f64]) -> f64 {
    let m = *s.iter().max_by(|a, b| a.total_cmp(b)).unwrap();
    m + s.iter().map(|v| (v - m).exp()).sum::<f64>().ln()
}

pub fn check() -> Result<(), String> {
    for s in [vec![0.3, 1.9, -0.4, 1.2], vec![5.0, 4.0]] {
        let (v, g) = total_cmp_max_by_grad(&s);
        crate::support::same_value("total_cmp_max_by", v, total_cmp_max_by(&s))?;
        let want = crate::support::fd_grad(total_cmp_max_by, &s);
        crate::support::close("total_cmp_max_by", &g, &want, 1e-6)?;
    }
    Ok(())
}
