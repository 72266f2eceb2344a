use autograd::differentiable;

/// Numerically stable log-sum-exp: the max by fold with `f64::max`, then a map/sum.
#[differentiable]
pub fn lse_fold_max(x: &[f64]) -> f64 {
    let m = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let s: f64 = x.iter().map(|&v| (v - m).exp()).sum();
    m + s.ln()
}

pub fn check() -> Result<(), String> {
    for x in [vec![0.5, 1.3, -0.7, 2.0], vec![-3.0, 0.2, 0.9, -0.4, 0.0]] {
        let (v, g) = lse_fold_max_grad(&x);
        crate::support::same_value("lse", v, lse_fold_max(&x))?;
        let want = crate::support::fd_grad(|q| lse_fold_max(q), &x);
        crate::support::close("lse_fold_max", &g, &want, 1e-6)?;
    }
    Ok(())
}
