use autograd::differentiable;

/// PV of a payer swap on a flat continuously-compounded curve: the floating
/// leg by the telescoping identity, the fixed leg over the payment schedule,
/// both through a discount-factor closure defined in the body.
#[differentiable]
pub fn swap_pv_closure_disc(rate: f64, fixed_rate: f64, notional: f64, #[constant] pay_times: &[f64]) -> f64 {
    let disc = |t: f64| (-rate * t).exp();
    let mut fixed_leg = 0.0;
    let mut prev = 0.0;
    for &t in pay_times {
        fixed_leg += fixed_rate * (t - prev) * disc(t);
        prev = t;
    }
    let float_leg = 1.0 - disc(prev);
    notional * (float_leg - fixed_leg)
}

pub fn check() -> Result<(), String> {
    let times = [0.5, 1.0, 1.5, 2.0, 2.5, 3.0];
    for p in [[0.03, 0.025, 1e6], [0.01, 0.04, 5e5]] {
        let (v, dr, dk, dn) = swap_pv_closure_disc_grad(p[0], p[1], p[2], &times);
        crate::support::same_value("swap", v, swap_pv_closure_disc(p[0], p[1], p[2], &times))?;
        let want = crate::support::fd_grad(|q| swap_pv_closure_disc(q[0], q[1], q[2], &times), &p);
        crate::support::close("swap_pv_closure_disc", &[dr, dk, dn], &want, 1e-6)?;
    }
    Ok(())
}
