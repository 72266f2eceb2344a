use autograd::differentiable;

/// Mean-variance utility of a long-only portfolio whose weights are a
/// softmax of unconstrained scores: exponentiate, then normalise in place.
#[differentiable]
pub fn softmax_portfolio_utility(scores: &[f64], #[constant] mu: &[f64], #[constant] cov: &[Vec<f64>], #[constant] risk_aversion: f64) -> f64 {
    let mut w = scores.to_vec();
    let max = w.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    for wi in w.iter_mut() {
        *wi = (*wi - max).exp();
    }
    let total: f64 = w.iter().sum();
    for wi in w.iter_mut() {
        *wi /= total;
    }
    let ret: f64 = w.iter().zip(mu).map(|(wi, m)| wi * m).sum();
    let mut var = 0.0;
    for i in 0..w.len() {
        for j in 0..w.len() {
            var += w[i] * cov[i][j] * w[j];
        }
    }
    ret - 0.5 * risk_aversion * var
}

pub fn check() -> Result<(), String> {
    let mu = [0.06, 0.03, 0.08, 0.02];
    let cov = vec![
        vec![0.040, 0.006, 0.012, 0.001],
        vec![0.006, 0.010, 0.004, 0.000],
        vec![0.012, 0.004, 0.090, 0.002],
        vec![0.001, 0.000, 0.002, 0.002],
    ];
    for s in [vec![0.1, -0.3, 0.5, 0.0], vec![1.2, 0.4, -0.8, 0.3]] {
        let (v, g) = softmax_portfolio_utility_grad(&s, &mu, &cov, 3.0);
        crate::support::same_value("softmax_portfolio", v, softmax_portfolio_utility(&s, &mu, &cov, 3.0))?;
        let want = crate::support::fd_grad(|q| softmax_portfolio_utility(q, &mu, &cov, 3.0), &s);
        crate::support::close("softmax_portfolio_utility", &g, &want, 1e-6)?;
    }
    Ok(())
}
