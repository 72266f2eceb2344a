use autograd::differentiable;

/// One exact log-normal step of geometric Brownian motion.
#[differentiable]
pub fn gbm_step(s: f64, mu: f64, sigma: f64, dt: f64, #[constant] z: f64) -> f64 {
    s * ((mu - 0.5 * sigma * sigma) * dt + sigma * dt.sqrt() * z).exp()
}

pub fn check() -> Result<(), String> {
    for z in [0.3, -1.2] {
        for p in [[100.0, 0.05, 0.2, 0.01], [50.0, 0.0, 0.4, 0.25]] {
            let (v, ds, dmu, dsig, ddt) = gbm_step_grad(p[0], p[1], p[2], p[3], z);
            crate::support::same_value("gbm", v, gbm_step(p[0], p[1], p[2], p[3], z))?;
            let want = crate::support::fd_grad(|q| gbm_step(q[0], q[1], q[2], q[3], z), &p);
            crate::support::close("gbm_step", &[ds, dmu, dsig, ddt], &want, 1e-6)?;
        }
    }
    Ok(())
}
