use autograd::differentiable;

/// CRR binomial price of a European call; its gradient is (delta, vega,
/// rho) of the tree. Terminal spots by `powi` of the up/down factors with
/// `as` conversions of the node counters.
#[differentiable]
pub fn binomial_tree_greeks(spot: f64, vol: f64, rate: f64, #[constant] strike: f64, #[constant] expiry: f64, steps: usize) -> f64 {
    let dt = expiry / steps as f64;
    let u = (vol * dt.sqrt()).exp();
    let d = 1.0 / u;
    let disc = (-rate * dt).exp();
    let p = ((rate * dt).exp() - d) / (u - d);
    let mut values: Vec<f64> = (0..=steps)
        .map(|j| {
            let st = spot * u.powi(j as i32) * d.powi((steps - j) as i32);
            (st - strike).max(0.0)
        })
        .collect();
    for n in (0..steps).rev() {
        for j in 0..=n {
            values[j] = disc * (p * values[j + 1] + (1.0 - p) * values[j]);
        }
    }
    values[0]
}

pub fn check() -> Result<(), String> {
    // The tree's price is piecewise smooth in spot and vol (a kink where a
    // terminal node crosses the strike); these points are away from kinks
    // by more than the difference step.
    for p in [[100.0, 0.2, 0.03], [90.0, 0.35, 0.01]] {
        let (v, ds, dv, dr) = binomial_tree_greeks_grad(p[0], p[1], p[2], 100.0, 1.0, 25);
        crate::support::same_value("crr", v, binomial_tree_greeks(p[0], p[1], p[2], 100.0, 1.0, 25))?;
        let want = crate::support::fd_grad(|q| binomial_tree_greeks(q[0], q[1], q[2], 100.0, 1.0, 25), &p);
        crate::support::close("binomial_tree_greeks", &[ds, dv, dr], &want, 1e-6)?;
    }
    Ok(())
}
