use autograd::differentiable;

/// Binary log loss with probabilities clamped into [ε, 1 − ε] by
/// `f64::EPSILON`, the way sklearn-style code guards `ln(0)`.
#[differentiable]
pub fn epsilon_clamped_logloss(logits: &[f64], #[constant] labels: &[f64]) -> f64 {
    let eps = f64::EPSILON;
    let mut loss = 0.0;
    for (z, y) in logits.iter().zip(labels) {
        let p = (1.0 / (1.0 + (-z).exp())).max(eps).min(1.0 - eps);
        loss -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
    }
    loss / logits.len() as f64
}

pub fn check() -> Result<(), String> {
    let labels = [1.0, 0.0, 1.0, 0.0];
    let z = vec![0.3, -1.2, 2.0, 0.8];
    let (v, g) = epsilon_clamped_logloss_grad(&z, &labels);
    crate::support::same_value("logloss", v, epsilon_clamped_logloss(&z, &labels))?;
    crate::support::close("epsilon_clamped_logloss", &g, &crate::support::fd_grad(|q| epsilon_clamped_logloss(q, &labels), &z), 1e-6)
}
