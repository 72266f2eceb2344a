use autograd::differentiable;

/// Price of a bullet bond with annual coupons, flat yield, discrete compounding.
#[differentiable]
pub fn bond_price(face: f64, coupon_rate: f64, ytm: f64, years: u32) -> f64 {
    let coupon = face * coupon_rate;
    let mut price = 0.0;
    for t in 1..=years {
        price += coupon / (1.0 + ytm).powi(t as i32);
    }
    price + face / (1.0 + ytm).powi(years as i32)
}

/// Relative tolerance 1e-6 against five-point differences.
pub fn check() -> Result<(), String> {
    for (p, n) in [([100.0, 0.05, 0.04], 10), ([1000.0, 0.03, 0.07], 5)] {
        let (v, d_face, d_c, d_y) = bond_price_grad(p[0], p[1], p[2], n);
        crate::support::same_value("bond_price", v, bond_price(p[0], p[1], p[2], n))?;
        let want = crate::support::fd_grad(|q| bond_price(q[0], q[1], q[2], n), &p);
        crate::support::close("bond_price", &[d_face, d_c, d_y], &want, 1e-6)?;
    }
    Ok(())
}
