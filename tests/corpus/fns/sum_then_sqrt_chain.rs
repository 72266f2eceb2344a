use autograd::differentiable;

/// Tracking error of a portfolio: method calls chained on the result of
/// `sum::<f64>()`, `.sqrt()` and `.ln()` straight after it.
#[differentiable(jvp)]
pub fn sum_then_sqrt_chain(w: &[f64], #[constant] active: &[f64]) -> f64 {
    let te = w.iter().zip(active).map(|(wi, ai)| (wi * ai).powi(2)).sum::<f64>().sqrt();
    let gross = w.iter().map(|wi| wi.abs()).sum::<f64>().ln();
    te + 0.1 * gross
}

pub fn check() -> Result<(), String> {
    let active = [0.02, -0.01, 0.03, 0.015];
    let w = vec![0.3, 0.2, -0.1, 0.6];
    let (v, g) = sum_then_sqrt_chain_grad(&w, &active);
    crate::support::same_value("te", v, sum_then_sqrt_chain(&w, &active))?;
    let want = crate::support::fd_grad(|q| sum_then_sqrt_chain(q, &active), &w);
    crate::support::close("sum_then_sqrt_chain", &g, &want, 1e-6)?;
    let dir = [1.0, 0.0, 0.5, -1.0];
    let (_, jt) = sum_then_sqrt_chain_jvp(&w, &active, &dir);
    let dot: f64 = want.iter().zip(&dir).map(|(a, b)| a * b).sum();
    crate::support::close("te jvp", &[jt], &[dot], 1e-6)
}
