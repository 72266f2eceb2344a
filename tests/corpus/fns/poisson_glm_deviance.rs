use autograd::differentiable;

/// Deviance of a Poisson GLM with a log link; the y·ln(y/μ) term vanishes at y = 0.
#[differentiable]
pub fn poisson_glm_deviance(beta: &[f64], #[constant] x: &[[f64; 3]], #[constant] counts: &[u64]) -> f64 {
    let mut dev = 0.0;
    for (row, &k) in x.iter().zip(counts) {
        let eta: f64 = row.iter().zip(beta).map(|(a, b)| a * b).sum();
        let mu = eta.exp();
        let y = k as f64;
        let term = match k {
            0 => mu,
            _ => y * (y / mu).ln() - (y - mu),
        };
        dev += 2.0 * term;
    }
    dev
}

pub fn check() -> Result<(), String> {
    let x = [[1.0, 0.2, -0.5], [1.0, 1.1, 0.3], [1.0, -0.7, 0.8], [1.0, 0.5, 1.5], [1.0, -1.2, -0.4]];
    let counts = [1, 4, 0, 7, 0];
    for beta in [vec![0.3, 0.5, 0.2], vec![-0.1, 0.9, 0.6]] {
        let (v, g) = poisson_glm_deviance_grad(&beta, &x, &counts);
        crate::support::same_value("deviance", v, poisson_glm_deviance(&beta, &x, &counts))?;
        let want = crate::support::fd_grad(|q| poisson_glm_deviance(q, &x, &counts), &beta);
        crate::support::close("poisson_glm_deviance", &g, &want, 1e-6)?;
    }
    Ok(())
}
