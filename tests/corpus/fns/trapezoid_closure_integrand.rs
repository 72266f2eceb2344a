use autograd::differentiable;

/// Hull–White-like integrated variance ∫₀ᵀ σ² e^{-2κ(T-s)} ds by the trapezoid rule.
#[differentiable]
pub fn trapezoid_closure_integrand(sigma: f64, kappa: f64, #[constant] t_end: f64, #[constant] n: usize) -> f64 {
    let integrand = |s: f64| sigma * sigma * (-2.0 * kappa * (t_end - s)).exp();
    let h = t_end / n as f64;
    let mut total = 0.5 * (integrand(0.0) + integrand(t_end));
    for i in 1..n {
        total += integrand(i as f64 * h);
    }
    total * h
}

pub fn check() -> Result<(), String> {
    for p in [[0.01, 0.1], [0.02, 0.5]] {
        let (v, a, b) = trapezoid_closure_integrand_grad(p[0], p[1], 5.0, 50);
        crate::support::same_value("trap", v, trapezoid_closure_integrand(p[0], p[1], 5.0, 50))?;
        let want = crate::support::fd_grad(|q| trapezoid_closure_integrand(q[0], q[1], 5.0, 50), &p);
        crate::support::close("trapezoid_closure_integrand", &[a, b], &want, 1e-6)?;
    }
    Ok(())
}
