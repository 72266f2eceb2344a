use autograd::differentiable;

/// Log-likelihood of positive observations under a log-normal, with an
/// early exit when any scale is non-positive, checked by `iter().any`.
#[differentiable]
pub fn any_negative_guard(mu: f64, sigma: f64, #[constant] obs: &[f64]) -> f64 {
    if obs.iter().any(|&x| x <= 0.0) || sigma <= 0.0 {
        return f64::NEG_INFINITY;
    }
    let n = obs.len() as f64;
    let ss: f64 = obs.iter().map(|x| (x.ln() - mu).powi(2)).sum();
    -n * sigma.ln() - ss / (2.0 * sigma * sigma)
}

pub fn check() -> Result<(), String> {
    let obs = [1.2, 0.8, 2.5, 1.7, 0.9];
    for p in [[0.1, 0.5], [0.3, 0.9]] {
        let f = |q: &[f64]| any_negative_guard(q[0], q[1], &obs);
        let (v, a, b) = any_negative_guard_grad(p[0], p[1], &obs);
        crate::support::same_value("lognormal", v, f(&p))?;
        crate::support::close("any_negative_guard", &[a, b], &crate::support::fd_grad(f, &p), 1e-6)?;
    }
    Ok(())
}
