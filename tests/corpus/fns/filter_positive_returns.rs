use autograd::differentiable;

/// Mean of the positive excess returns (an upside-deviation style
/// statistic), selected with `filter`.
#[differentiable]
pub fn filter_positive_returns(r: &[f64], #[constant] hurdle: f64) -> f64 {
    let ups: Vec<f64> = r.iter().map(|&v| v - hurdle).filter(|&v| v > 0.0).collect();
    if ups.is_empty() {
        return 0.0;
    }
    ups.iter().map(|v| v * v).sum::<f64>() / ups.len() as f64
}

pub fn check() -> Result<(), String> {
    for r in [vec![0.03, -0.01, 0.05, 0.002, -0.04], vec![0.1, 0.2, -0.3]] {
        let (v, g) = filter_positive_returns_grad(&r, 0.01);
        crate::support::same_value("filter", v, filter_positive_returns(&r, 0.01))?;
        let want = crate::support::fd_grad(|q| filter_positive_returns(q, 0.01), &r);
        crate::support::close("filter_positive_returns", &g, &want, 1e-6)?;
    }
    Ok(())
}
