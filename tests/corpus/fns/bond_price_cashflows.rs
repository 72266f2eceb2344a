use autograd::differentiable;

/// Price from a cash-flow schedule, continuous compounding at a flat rate.
#[differentiable]
pub fn bond_price_cashflows(rate: f64, #[constant] times: &[f64], #[constant] flows: &[f64]) -> f64 {
    times
        .iter()
        .zip(flows)
        .map(|(t, cf)| cf * (-rate * t).exp())
        .sum::<f64>()
}

/// Relative tolerance 1e-6.
pub fn check() -> Result<(), String> {
    let times = [0.5, 1.0, 1.5, 2.0];
    let flows = [2.5, 2.5, 2.5, 102.5];
    for r in [0.01, 0.045, 0.12] {
        let (v, dr) = bond_price_cashflows_grad(r, &times, &flows);
        crate::support::same_value("price", v, bond_price_cashflows(r, &times, &flows))?;
        let want = crate::support::fd_grad(|q| bond_price_cashflows(q[0], &times, &flows), &[r]);
        crate::support::close("bond_price_cashflows", &[dr], &want, 1e-6)?;
    }
    Ok(())
}
