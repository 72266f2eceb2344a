use autograd::differentiable;

/// A piecewise payoff by the signs of two spreads, matched as a tuple.
#[differentiable]
pub fn match_tuple_signs(a: f64, b: f64, #[constant] k: f64) -> f64 {
    match (a > k, b > k) {
        (true, true) => (a - k) * (b - k),
        (true, false) => 0.5 * (a - k),
        (false, true) => 0.5 * (b - k),
        (false, false) => 0.0,
    }
}

pub fn check() -> Result<(), String> {
    for (a, b) in [(1.3, 1.7), (1.4, 0.2), (0.1, 2.5)] {
        let (v, da, db) = match_tuple_signs_grad(a, b, 1.0);
        crate::support::same_value("payoff", v, match_tuple_signs(a, b, 1.0))?;
        let want = crate::support::fd_grad(|q| match_tuple_signs(q[0], q[1], 1.0), &[a, b]);
        crate::support::close("match_tuple_signs", &[da, db], &want, 1e-6)?;
    }
    Ok(())
}
