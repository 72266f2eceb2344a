use autograd::differentiable;

/// Contrastive loss over embedding pairs: pull similar pairs together,
/// push dissimilar ones beyond a margin.
#[differentiable]
pub fn contrastive_loss(a: &[f64], b: &[f64], #[constant] similar: bool, #[constant] margin: f64) -> f64 {
    let dist2: f64 = a.iter().zip(b.iter()).map(|(x, y)| (x - y).powi(2)).sum();
    let dist = (dist2 + 1e-12).sqrt();
    match similar {
        true => 0.5 * dist2,
        false => 0.5 * (margin - dist).max(0.0).powi(2),
    }
}

pub fn check() -> Result<(), String> {
    let a = [0.1, 0.5, -0.3];
    let b = [0.4, 0.2, 0.1];
    for similar in [true, false] {
        let (v, ga, gb) = contrastive_loss_grad(&a, &b, similar, 1.5);
        crate::support::same_value("contrastive", v, contrastive_loss(&a, &b, similar, 1.5))?;
        let x: Vec<f64> = a.iter().chain(b.iter()).copied().collect();
        let want = crate::support::fd_grad(|q| contrastive_loss(&q[..3], &q[3..], similar, 1.5), &x);
        let got: Vec<f64> = ga.iter().chain(gb.iter()).copied().collect();
        crate::support::close("contrastive_loss", &got, &want, 1e-6)?;
    }
    Ok(())
}
