use autograd::differentiable;

#[derive(Clone, Copy)]
pub enum Payoff {
    Call,
    Put,
    Straddle,
}

/// A payoff chosen by an enum argument, smoothed with softplus.
#[differentiable]
pub fn match_enum_param_payoff(s: f64, k: f64, #[constant] kind: Payoff) -> f64 {
    let soft = |x: f64| (1.0 + (10.0 * x).exp()).ln() / 10.0;
    match kind {
        Payoff::Call => soft(s - k),
        Payoff::Put => soft(k - s),
        Payoff::Straddle => soft(s - k) + soft(k - s),
    }
}

pub fn check() -> Result<(), String> {
    for kind in [Payoff::Call, Payoff::Put, Payoff::Straddle] {
        let (v, ds, dk) = match_enum_param_payoff_grad(1.05, 1.0, kind);
        crate::support::same_value("payoff", v, match_enum_param_payoff(1.05, 1.0, kind))?;
        let want = crate::support::fd_grad(|q| match_enum_param_payoff(q[0], q[1], kind), &[1.05, 1.0]);
        crate::support::close("payoff", &[ds, dk], &want, 1e-6)?;
    }
    Ok(())
}
