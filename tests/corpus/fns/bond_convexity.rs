use autograd::differentiable;

/// Convexity of a fixed-coupon bond at a flat yield, annual payments.
#[differentiable]
pub fn bond_convexity(yield_rate: f64, coupon: f64, #[constant] years: u32) -> f64 {
    let face = 100.0;
    let mut price = 0.0;
    let mut weighted = 0.0;
    for t in 1..=years {
        let cf = if t == years { coupon * face + face } else { coupon * face };
        let df = (1.0 + yield_rate).powi(-(t as i32));
        price += cf * df;
        weighted += cf * df * (t * (t + 1)) as f64;
    }
    weighted / (price * (1.0 + yield_rate).powi(2))
}

pub fn check() -> Result<(), String> {
    for p in [[0.04, 0.05], [0.07, 0.03]] {
        let (v, dy, dc) = bond_convexity_grad(p[0], p[1], 10);
        crate::support::same_value("convexity", v, bond_convexity(p[0], p[1], 10))?;
        let want = crate::support::fd_grad(|q| bond_convexity(q[0], q[1], 10), &p);
        crate::support::close("bond_convexity", &[dy, dc], &want, 1e-6)?;
    }
    Ok(())
}
