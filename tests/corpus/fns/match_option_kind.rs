use autograd::differentiable;

#[derive(Clone, Copy, PartialEq)]
pub enum Kind {
    Call,
    Put,
}

/// Smoothed vanilla payoff by option kind.
#[differentiable]
pub fn match_option_kind(spot: f64, strike: f64, #[constant] kind: Kind) -> f64 {
    let intrinsic = match kind {
        Kind::Call => spot - strike,
        Kind::Put => strike - spot,
    };
    let eps = 0.5;
    0.5 * (intrinsic + (intrinsic * intrinsic + eps * eps).sqrt())
}

pub fn check() -> Result<(), String> {
    for kind in [Kind::Call, Kind::Put] {
        for p in [[101.0, 100.0], [95.0, 100.0]] {
            let (v, a, b) = match_option_kind_grad(p[0], p[1], kind);
            crate::support::same_value("kind", v, match_option_kind(p[0], p[1], kind))?;
            let want = crate::support::fd_grad(|q| match_option_kind(q[0], q[1], kind), &p);
            crate::support::close("match_option_kind", &[a, b], &want, 1e-6)?;
        }
    }
    Ok(())
}
