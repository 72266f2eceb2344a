use autograd::differentiable;

/// Price per 100 face of an annual-coupon bond at yield `y`.
#[differentiable]
pub fn price_at_yield(y: f64, #[constant] coupon: f64, #[constant] years: usize) -> f64 {
    let coupons: f64 = (1..=years).map(|t| coupon / (1.0 + y).powi(t as i32)).sum();
    coupons + 100.0 / (1.0 + y).powi(years as i32)
}

/// Effective duration the way a risk system computes it: reprice with the
/// yield bumped up and down. Its derivative in `y` is a convexity-like term.
#[differentiable]
pub fn effective_duration_bump(y: f64, #[constant] coupon: f64, #[constant] years: usize, #[constant] bump: f64) -> f64 {
    let p0 = price_at_yield(y, coupon, years);
    let up = price_at_yield(y + bump, coupon, years);
    let down = price_at_yield(y - bump, coupon, years);
    (down - up) / (2.0 * bump * p0)
}

pub fn check() -> Result<(), String> {
    for (y, c, n) in [(0.045, 5.0, 10), (0.02, 3.0, 7)] {
        let (v, dy) = effective_duration_bump_grad(y, c, n, 1e-3);
        crate::support::same_value("eff dur", v, effective_duration_bump(y, c, n, 1e-3))?;
        let want = crate::support::fd_grad(|q| effective_duration_bump(q[0], c, n, 1e-3), &[y]);
        crate::support::close("effective_duration_bump", &[dy], &want, 1e-6)?;
    }
    Ok(())
}
