use autograd::differentiable;

/// Variance of the integrated short rate ∫₀ᵀ (x + y) dt in the two-factor
/// Gaussian (G2++) model (Brigo–Mercurio 4.10).
#[differentiable]
pub fn g2pp_variance(mean_rev: [f64; 2], vols: [f64; 2], rho: f64, tau: f64) -> f64 {
    let [a, b] = mean_rev;
    let [sigma, eta] = vols;
    let ea = (-a * tau).exp();
    let eb = (-b * tau).exp();
    let eab = (-(a + b) * tau).exp();
    sigma * sigma / (a * a) * (tau + 2.0 / a * ea - 0.5 / a * ea * ea - 1.5 / a)
        + eta * eta / (b * b) * (tau + 2.0 / b * eb - 0.5 / b * eb * eb - 1.5 / b)
        + 2.0 * rho * sigma * eta / (a * b) * (tau + (ea - 1.0) / a + (eb - 1.0) / b - (eab - 1.0) / (a + b))
}

/// Sum of G2++ zero-coupon bond prices over a strip of maturities, from the
/// current factor state, with a flat deterministic shift φ.
#[differentiable]
pub fn g2pp_zero_bond(state: [f64; 2], mean_rev: [f64; 2], vols: [f64; 2], rho: f64, phi: f64, #[constant] maturities: &[f64]) -> f64 {
    let [x, y] = state;
    let [a, b] = mean_rev;
    let mut total = 0.0;
    for &tau in maturities {
        let ba = (1.0 - (-a * tau).exp()) / a;
        let bb = (1.0 - (-b * tau).exp()) / b;
        let v = g2pp_variance(mean_rev, vols, rho, tau);
        total += (-phi * tau - ba * x - bb * y + 0.5 * v).exp();
    }
    total
}

pub fn check() -> Result<(), String> {
    let maturities = [0.5, 1.0, 2.0, 5.0, 10.0];
    for p in [[0.002, -0.001, 0.5, 0.05, 0.01, 0.008, -0.6, 0.03], [-0.01, 0.004, 1.2, 0.2, 0.02, 0.015, 0.3, 0.02]] {
        let (v, ds, dmr, dvol, drho, dphi) = g2pp_zero_bond_grad([p[0], p[1]], [p[2], p[3]], [p[4], p[5]], p[6], p[7], &maturities);
        crate::support::same_value("g2pp", v, g2pp_zero_bond([p[0], p[1]], [p[2], p[3]], [p[4], p[5]], p[6], p[7], &maturities))?;
        let want = crate::support::fd_grad(|q| g2pp_zero_bond([q[0], q[1]], [q[2], q[3]], [q[4], q[5]], q[6], q[7], &maturities), &p);
        let got = [ds[0], ds[1], dmr[0], dmr[1], dvol[0], dvol[1], drho, dphi];
        crate::support::close("g2pp_zero_bond", &got, &want, 1e-6)?;
    }
    Ok(())
}
