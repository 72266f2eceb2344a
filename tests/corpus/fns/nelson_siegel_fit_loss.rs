use autograd::differentiable;

/// Squared error of a Nelson–Siegel curve to observed zero rates.
#[differentiable]
pub fn nelson_siegel_fit_loss(params: &[f64; 4], #[constant] maturities: &[f64], #[constant] observed: &[f64]) -> f64 {
    let [b0, b1, b2, tau] = *params;
    let mut loss = 0.0;
    for (t, y) in maturities.iter().zip(observed.iter()) {
        let x = t / tau;
        let e = (-x).exp();
        let f = (1.0 - e) / x;
        let model = b0 + b1 * f + b2 * (f - e);
        loss += (model - y).powi(2);
    }
    loss / maturities.len() as f64
}

pub fn check() -> Result<(), String> {
    let mats = [0.5, 1.0, 2.0, 5.0, 10.0, 30.0];
    let obs = [0.021, 0.023, 0.026, 0.031, 0.034, 0.036];
    for p in [[0.035, -0.015, 0.01, 2.0], [0.04, -0.02, -0.01, 1.0]] {
        let (v, g) = nelson_siegel_fit_loss_grad(&p, &mats, &obs);
        crate::support::same_value("loss", v, nelson_siegel_fit_loss(&p, &mats, &obs))?;
        let want = crate::support::fd_grad(|q| nelson_siegel_fit_loss(&[q[0], q[1], q[2], q[3]], &mats, &obs), &p);
        crate::support::close("nelson_siegel_fit_loss", &g, &want, 1e-6)?;
    }
    Ok(())
}
