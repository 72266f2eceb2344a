use autograd::differentiable;

/// Weights of a three-asset portfolio and the investor's risk aversion.
#[derive(Clone, Debug, autograd::Tangent)]
pub struct MvParams {
    pub w1: f64,
    pub w2: f64,
    pub w3: f64,
    pub risk_aversion: f64,
}

/// Mean-variance utility after one projected gradient-ascent step: the
/// params arrive by value, the step updates the weight fields in place and
/// renormalises them to be fully invested, then the utility is evaluated.
/// Returns and covariances are in percent.
#[differentiable]
pub fn portfolio_step_by_value(mut p: MvParams, #[constant] mu: &[f64; 3], #[constant] cov: &[[f64; 3]; 3], #[constant] lr: f64) -> f64 {
    let w = [p.w1, p.w2, p.w3];
    let mut grad = [0.0; 3];
    for i in 0..3 {
        let mut sigma_w = 0.0;
        for j in 0..3 {
            sigma_w += cov[i][j] * w[j];
        }
        grad[i] = mu[i] - p.risk_aversion * sigma_w;
    }

    p.w1 += lr * grad[0];
    p.w2 += lr * grad[1];
    p.w3 += lr * grad[2];
    let total = p.w1 + p.w2 + p.w3;
    p.w1 /= total;
    p.w2 /= total;
    p.w3 /= total;

    let w = [p.w1, p.w2, p.w3];
    let mut expected = 0.0;
    let mut variance = 0.0;
    for i in 0..3 {
        expected += mu[i] * w[i];
        for j in 0..3 {
            variance += w[i] * cov[i][j] * w[j];
        }
    }
    expected - 0.5 * p.risk_aversion * variance
}

pub fn check() -> Result<(), String> {
    let mu = [6.0, 8.0, 4.0];
    let cov = [[4.0, 1.0, 0.0], [1.0, 9.0, 2.0], [0.0, 2.0, 1.5]];
    for x in [[0.3, 0.5, 0.2, 0.8], [0.6, 0.1, 0.3, 1.5]] {
        let make = |q: &[f64]| MvParams { w1: q[0], w2: q[1], w3: q[2], risk_aversion: q[3] };
        let (v, d) = portfolio_step_by_value_grad(make(&x), &mu, &cov, 0.02);
        crate::support::same_value("portfolio_step", v, portfolio_step_by_value(make(&x), &mu, &cov, 0.02))?;
        let want = crate::support::fd_grad(|q| portfolio_step_by_value(make(q), &mu, &cov, 0.02), &x);
        crate::support::close("portfolio_step_by_value", &[d.w1, d.w2, d.w3, d.risk_aversion], &want, 1e-6)?;
    }
    Ok(())
}
