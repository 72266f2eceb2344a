use autograd::differentiable;

/// Raw SVI parameters of one expiry's total-variance smile.
#[derive(Clone, Debug, autograd::Tangent)]
pub struct Svi {
    pub a: f64,
    pub b: f64,
    pub rho: f64,
    pub m: f64,
    pub sigma: f64,
}

/// Total implied variance w(k) = a + b (ρ (k − m) + √((k − m)² + σ²)).
#[differentiable]
pub fn total_variance(p: &Svi, k: f64) -> f64 {
    let km = k - p.m;
    p.a + p.b * (p.rho * km + (km * km + p.sigma * p.sigma).sqrt())
}

/// Mean squared implied-vol error of an SVI slice against market quotes;
/// the parameters are taken by value, as an optimizer's closure hands them over.
#[differentiable]
pub fn svi_slice_fit_by_value(p: Svi, #[constant] log_moneyness: &[f64], #[constant] market_vols: &[f64], #[constant] t: f64) -> f64 {
    log_moneyness
        .iter()
        .zip(market_vols)
        .map(|(&k, &v)| {
            let model_vol = (total_variance(&p, k) / t).sqrt();
            (model_vol - v).powi(2)
        })
        .sum::<f64>()
        / market_vols.len() as f64
}

pub fn check() -> Result<(), String> {
    let ks = [-0.4, -0.2, -0.1, 0.0, 0.1, 0.2, 0.35];
    let vols = [0.31, 0.26, 0.235, 0.215, 0.2, 0.195, 0.2];
    for x in [[0.02, 0.1, -0.4, 0.05, 0.2], [0.03, 0.15, -0.2, -0.02, 0.3]] {
        let make = |q: &[f64]| Svi { a: q[0], b: q[1], rho: q[2], m: q[3], sigma: q[4] };
        let (v, d) = svi_slice_fit_by_value_grad(make(&x), &ks, &vols, 0.75);
        crate::support::same_value("svi", v, svi_slice_fit_by_value(make(&x), &ks, &vols, 0.75))?;
        let want = crate::support::fd_grad(|q| svi_slice_fit_by_value(make(q), &ks, &vols, 0.75), &x);
        crate::support::close("svi_slice_fit_by_value", &[d.a, d.b, d.rho, d.m, d.sigma], &want, 1e-6)?;
    }
    Ok(())
}
