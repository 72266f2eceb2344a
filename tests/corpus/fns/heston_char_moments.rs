use autograd::differentiable;

/// Mean and variance of the integrated Heston variance over [0, T], combined
/// into a moment-matching penalty against market values.
#[differentiable]
pub fn heston_char_moments(v0: f64, kappa: f64, theta: f64, xi: f64, #[constant] t: f64, #[constant] market: (f64, f64)) -> f64 {
    let e = (-kappa * t).exp();
    let mean = theta * t + (v0 - theta) * (1.0 - e) / kappa;
    let var = xi * xi / (kappa * kappa) * (theta * t + (v0 - theta) * (1.0 - e) / kappa - 2.0 * v0 * t * e);
    let (m_mkt, v_mkt) = market;
    (mean - m_mkt).powi(2) + (var.abs().sqrt() - v_mkt.sqrt()).powi(2)
}

pub fn check() -> Result<(), String> {
    let p = [0.04, 1.5, 0.05, 0.4];
    let f = |q: &[f64]| heston_char_moments(q[0], q[1], q[2], q[3], 1.0, (0.045, 0.0004));
    let (v, a, b, c, d) = heston_char_moments_grad(p[0], p[1], p[2], p[3], 1.0, (0.045, 0.0004));
    crate::support::same_value("heston", v, f(&p))?;
    crate::support::close("heston_char_moments", &[a, b, c, d], &crate::support::fd_grad(f, &p), 1e-6)
}
