use autograd::differentiable;

/// Model price minus market price when every zero rate is shifted by `z`.
#[differentiable]
pub fn zspread_residual(
    z: f64,
    zero_rates: &[f64],
    #[constant] times: &[f64],
    #[constant] flows: &[f64],
    #[constant] market_price: f64,
) -> f64 {
    let mut model = 0.0;
    for (i, &t) in times.iter().enumerate() {
        model += flows[i] * (-(zero_rates[i] + z) * t).exp();
    }
    model - market_price
}

pub fn check() -> Result<(), String> {
    let times = [1.0, 2.0, 3.0];
    let flows = [5.0, 5.0, 105.0];
    for (z, rates) in [(0.01, [0.02, 0.025, 0.03]), (0.035, [0.04, 0.038, 0.036])] {
        let (v, dz, drates) = zspread_residual_grad(z, &rates, &times, &flows, 98.0);
        crate::support::same_value("residual", v, zspread_residual(z, &rates, &times, &flows, 98.0))?;
        let p = [z, rates[0], rates[1], rates[2]];
        let want = crate::support::fd_grad(|q| zspread_residual(q[0], &q[1..], &times, &flows, 98.0), &p);
        let mut got = vec![dz];
        got.extend(drates);
        crate::support::close("zspread_residual", &got, &want, 1e-6)?;
    }
    Ok(())
}
