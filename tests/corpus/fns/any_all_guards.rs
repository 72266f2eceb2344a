use autograd::differentiable;

/// A log-likelihood that guards its inputs with `any` and `all` before
/// using them.
#[differentiable]
pub fn any_all_guards(sigma: &[f64], #[constant] e: &[f64]) -> f64 {
    if sigma.iter().any(|&s| s <= 0.0) {
        return f64::INFINITY;
    }
    let penalty = if sigma.iter().all(|&s| s < 1.0) { 0.0 } else { 0.5 };
    let mut nll = penalty;
    for (s, r) in sigma.iter().zip(e) {
        nll += s.ln() + 0.5 * (r / s).powi(2);
    }
    nll
}

pub fn check() -> Result<(), String> {
    let e = [0.3, -0.2, 0.5];
    for s in [vec![0.2, 0.4, 0.6], vec![1.2, 0.4, 0.9]] {
        let (v, g) = any_all_guards_grad(&s, &e);
        crate::support::same_value("guards", v, any_all_guards(&s, &e))?;
        let want = crate::support::fd_grad(|q| any_all_guards(q, &e), &s);
        crate::support::close("any_all_guards", &g, &want, 1e-6)?;
    }
    Ok(())
}
