use autograd::differentiable;
use autograd::special::norm_cdf;

/// Kirk's approximation for a spread call on two futures, max(F1 − F2 − K, 0),
/// written as the desk writes it: an effective volatility, then Black-76.
#[differentiable(jvp)]
pub fn kirk_spread_option(f1: f64, f2: f64, k: f64, sigma1: f64, sigma2: f64, rho: f64, t: f64, r: f64) -> f64 {
    let w = f2 / (f2 + k);
    let sigma = (sigma1.powi(2) - 2.0 * rho * sigma1 * sigma2 * w + (sigma2 * w).powi(2)).sqrt();
    let sd = sigma * t.sqrt();
    let d1 = ((f1 / (f2 + k)).ln() + 0.5 * sd * sd) / sd;
    let d2 = d1 - sd;
    let df = (-r * t).exp();
    df * (f1 * norm_cdf(d1) - (f2 + k) * norm_cdf(d2))
}

pub fn check() -> Result<(), String> {
    let f = |q: &[f64]| kirk_spread_option(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]);
    for p in [[110.0, 100.0, 5.0, 0.3, 0.25, 0.6, 1.0, 0.02], [50.0, 45.0, 2.0, 0.4, 0.35, -0.2, 0.5, 0.05]] {
        let (v, a, b, c, d, e, g, h, i) = kirk_spread_option_grad(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
        crate::support::same_value("kirk", v, f(&p))?;
        let want = crate::support::fd_grad(f, &p);
        let got = [a, b, c, d, e, g, h, i];
        crate::support::close("kirk_spread_option", &got, &want, 1e-6)?;
        let dir = [1.0, -0.5, 0.25, 0.1, -0.2, 0.3, 0.05, 0.7];
        let (jv, jt) = kirk_spread_option_jvp(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], dir[0], dir[1], dir[2], dir[3], dir[4], dir[5], dir[6], dir[7]);
        crate::support::same_value("kirk jvp", jv, f(&p))?;
        let dot: f64 = want.iter().zip(&dir).map(|(g, d)| g * d).sum();
        crate::support::close("kirk_spread_option jvp", &[jt], &[dot], 1e-6)?;
    }
    Ok(())
}
