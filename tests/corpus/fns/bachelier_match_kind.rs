use autograd::differentiable;

/// Which payoff to price.
#[derive(Clone, Copy, Debug)]
pub enum OptionKind {
    Call,
    Put,
    Straddle,
}

/// Standard normal CDF via the Abramowitz–Stegun 7.1.26 erf approximation.
#[differentiable]
fn norm_cdf(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.3275911 * z);
    let poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
    let erf = 1.0 - poly * (-z * z).exp();
    if x >= 0.0 { 0.5 * (1.0 + erf) } else { 0.5 * (1.0 - erf) }
}

/// Bachelier (normal-model) price of a call, put or straddle on a forward,
/// undiscounted; expired options return their intrinsic value early.
#[differentiable]
pub fn bachelier_match_kind(forward: f64, strike: f64, normal_vol: f64, #[constant] t: f64, #[constant] kind: OptionKind) -> f64 {
    let intrinsic = forward - strike;
    if t <= 0.0 {
        return match kind {
            OptionKind::Call => intrinsic.max(0.0),
            OptionKind::Put => (-intrinsic).max(0.0),
            OptionKind::Straddle => intrinsic.abs(),
        };
    }
    let sd = normal_vol * t.sqrt();
    let d = intrinsic / sd;
    let pdf = (-0.5 * d * d).exp() / (2.0 * std::f64::consts::PI).sqrt();
    let call = intrinsic * norm_cdf(d) + sd * pdf;
    match kind {
        OptionKind::Call => call,
        OptionKind::Put => call - intrinsic,
        OptionKind::Straddle => 2.0 * call - intrinsic,
    }
}

pub fn check() -> Result<(), String> {
    for (p, kind) in [
        ([100.0, 95.0, 8.0], OptionKind::Call),
        ([100.0, 104.0, 12.0], OptionKind::Put),
        ([50.0, 48.5, 5.0], OptionKind::Straddle),
    ] {
        let (v, df, dk, dvol) = bachelier_match_kind_grad(p[0], p[1], p[2], 0.75, kind);
        crate::support::same_value("bachelier", v, bachelier_match_kind(p[0], p[1], p[2], 0.75, kind))?;
        let want = crate::support::fd_grad(|q| bachelier_match_kind(q[0], q[1], q[2], 0.75, kind), &p);
        crate::support::close("bachelier_match_kind", &[df, dk, dvol], &want, 1e-6)?;
    }
    Ok(())
}
