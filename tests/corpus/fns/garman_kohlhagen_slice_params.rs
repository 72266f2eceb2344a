use autograd::differentiable;
use autograd::special::norm_cdf;

/// Garman–Kohlhagen FX call; market inputs arrive as a slice and are
/// unpacked into names by a tuple `let`.
#[differentiable]
pub fn garman_kohlhagen_slice_params(p: &[f64], #[constant] strike: f64, #[constant] t: f64) -> f64 {
    let (spot, rd, rf, vol) = (p[0], p[1], p[2], p[3]);
    let sd = vol * t.sqrt();
    let d1 = ((spot / strike).ln() + (rd - rf + 0.5 * vol * vol) * t) / sd;
    let d2 = d1 - sd;
    spot * (-rf * t).exp() * norm_cdf(d1) - strike * (-rd * t).exp() * norm_cdf(d2)
}

pub fn check() -> Result<(), String> {
    for p in [vec![1.10, 0.03, 0.01, 0.12], vec![145.0, 0.001, 0.045, 0.09]] {
        let k = p[0] * 1.02;
        let (v, g) = garman_kohlhagen_slice_params_grad(&p, k, 0.75);
        crate::support::same_value("gk", v, garman_kohlhagen_slice_params(&p, k, 0.75))?;
        let want = crate::support::fd_grad(|q| garman_kohlhagen_slice_params(q, k, 0.75), &p);
        crate::support::close("garman_kohlhagen_slice_params", &g, &want, 1e-6)?;
    }
    Ok(())
}
