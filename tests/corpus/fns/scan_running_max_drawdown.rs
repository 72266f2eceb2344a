use autograd::differentiable;

/// Sum of squared drawdowns from the running peak of a price path built
/// from returns with `scan`.
#[differentiable]
pub fn scan_running_max_drawdown(ret: &[f64]) -> f64 {
    let prices: Vec<f64> = ret
        .iter()
        .scan(100.0, |p, r| {
            *p *= 1.0 + r;
            Some(*p)
        })
        .collect();
    let mut peak = f64::NEG_INFINITY;
    let mut total = 0.0;
    for &p in &prices {
        peak = peak.max(p);
        let dd = (peak - p) / peak;
        total += dd * dd;
    }
    total
}

pub fn check() -> Result<(), String> {
    for r in [vec![0.02, -0.05, 0.01, -0.03, 0.04], vec![-0.1, 0.05, 0.07]] {
        let (v, g) = scan_running_max_drawdown_grad(&r);
        crate::support::same_value("scan", v, scan_running_max_drawdown(&r))?;
        let want = crate::support::fd_grad(scan_running_max_drawdown, &r);
        crate::support::close("scan_running_max_drawdown", &g, &want, 1e-6)?;
    }
    Ok(())
}
