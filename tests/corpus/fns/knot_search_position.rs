use autograd::differentiable;

/// Piecewise-linear zero curve: find the bracketing knot with `position`, then interpolate.
#[differentiable]
pub fn knot_search_position(rates: &[f64], #[constant] knots: &[f64], #[constant] t: f64) -> f64 {
    let i = knots.iter().position(|&k| k >= t).unwrap_or(knots.len() - 1).max(1);
    let w = (t - knots[i - 1]) / (knots[i] - knots[i - 1]);
    let r = rates[i - 1] * (1.0 - w) + rates[i] * w;
    (-r * t).exp()
}

pub fn check() -> Result<(), String> {
    let knots = [0.5, 1.0, 2.0, 5.0, 10.0];
    for (r, t) in [(vec![0.02, 0.022, 0.025, 0.03, 0.032], 3.0), (vec![0.05, 0.045, 0.04, 0.038, 0.037], 0.7)] {
        let (v, g) = knot_search_position_grad(&r, &knots, t);
        crate::support::same_value("interp", v, knot_search_position(&r, &knots, t))?;
        let want = crate::support::fd_grad(|q| knot_search_position(q, &knots, t), &r);
        crate::support::close("knot_search_position", &g, &want, 1e-6)?;
    }
    Ok(())
}
