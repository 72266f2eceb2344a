use autograd::differentiable;

/// Smoothed maximum drawdown: running peak with a soft max, worst relative drop.
#[differentiable]
pub fn max_drawdown_smooth(prices: &[f64], #[constant] k: f64) -> f64 {
    let soft_max = |a: f64, b: f64| {
        let m = a.max(b);
        m + (((a - m) * k).exp() + ((b - m) * k).exp()).ln() / k
    };
    let mut peak = prices[0];
    let mut worst = 0.0;
    for &p in prices.iter().skip(1) {
        peak = soft_max(peak, p);
        worst = soft_max(worst, 1.0 - p / peak);
    }
    worst
}

pub fn check() -> Result<(), String> {
    for x in [vec![100.0, 104.0, 98.0, 101.0, 95.0], vec![10.0, 9.0, 11.0, 10.5]] {
        let (v, g) = max_drawdown_smooth_grad(&x, 50.0);
        crate::support::same_value("dd", v, max_drawdown_smooth(&x, 50.0))?;
        let want = crate::support::fd_grad(|q| max_drawdown_smooth(q, 50.0), &x);
        crate::support::close("max_drawdown_smooth", &g, &want, 1e-5)?;
    }
    Ok(())
}
