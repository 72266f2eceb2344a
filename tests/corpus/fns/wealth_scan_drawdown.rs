use autograd::differentiable;

/// Log terminal wealth of a levered position minus a penalty on the range
/// of the wealth path: the path by `scan`, its peak and trough by
/// `f64::max` / `f64::min` folds.
#[differentiable]
pub fn wealth_scan_drawdown(weight: f64, leverage: f64, #[constant] returns: &[f64]) -> f64 {
    let path: Vec<f64> = returns
        .iter()
        .scan(1.0, |w, &r| {
            *w *= 1.0 + leverage * weight * r;
            Some(*w)
        })
        .collect();
    let peak = path.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let trough = path.iter().fold(f64::INFINITY, |m, &w| m.min(w));
    let terminal = *path.last().unwrap();
    terminal.ln() - 0.5 * (peak - trough) / peak
}

pub fn check() -> Result<(), String> {
    let rets = [0.02, -0.015, 0.03, -0.04, 0.01, 0.025, -0.01];
    for p in [[0.6, 1.5], [0.9, 2.0]] {
        let (v, dw, dl) = wealth_scan_drawdown_grad(p[0], p[1], &rets);
        crate::support::same_value("wealth", v, wealth_scan_drawdown(p[0], p[1], &rets))?;
        let want = crate::support::fd_grad(|q| wealth_scan_drawdown(q[0], q[1], &rets), &p);
        crate::support::close("wealth_scan_drawdown", &[dw, dl], &want, 1e-6)?;
    }
    Ok(())
}
