use autograd::differentiable;

/// A payoff description with data in its variants.
#[derive(Clone, Copy, Debug)]
pub enum Payoff {
    Call { strike: f64 },
    Put { strike: f64 },
    Digital { strike: f64, width: f64 },
}

/// Smoothed payoff of a spot under the given description.
#[differentiable]
pub fn enum_payoff_fields(spot: f64, smooth: f64, #[constant] payoff: Payoff) -> f64 {
    let softplus = |z: f64| smooth * (z / smooth).exp().ln_1p();
    match payoff {
        Payoff::Call { strike } => softplus(spot - strike),
        Payoff::Put { strike } => softplus(strike - spot),
        Payoff::Digital { strike, width } => 1.0 / (1.0 + (-(spot - strike) / width).exp()),
    }
}

pub fn check() -> Result<(), String> {
    for payoff in [Payoff::Call { strike: 100.0 }, Payoff::Put { strike: 100.0 }, Payoff::Digital { strike: 100.0, width: 2.0 }] {
        for p in [[101.0, 1.5], [96.0, 3.0]] {
            let (v, a, b) = enum_payoff_fields_grad(p[0], p[1], payoff);
            crate::support::same_value("payoff", v, enum_payoff_fields(p[0], p[1], payoff))?;
            let want = crate::support::fd_grad(|q| enum_payoff_fields(q[0], q[1], payoff), &p);
            crate::support::close("enum_payoff_fields", &[a, b], &want, 1e-6)?;
        }
    }
    Ok(())
}
