use autograd::differentiable;

#[derive(Clone, Copy)]
pub enum Loss {
    Squared,
    Absolute,
    Huber,
}

/// Robust regression loss chosen by an enum.
#[differentiable]
pub fn huber_match(residual: f64, #[constant] kind: Loss) -> f64 {
    match kind {
        Loss::Squared => residual * residual,
        Loss::Absolute => residual.abs(),
        Loss::Huber if residual.abs() < 1.0 => 0.5 * residual * residual,
        Loss::Huber => residual.abs() - 0.5,
    }
}

pub fn check() -> Result<(), String> {
    for kind in [Loss::Squared, Loss::Absolute, Loss::Huber] {
        for r in [0.4, -2.5, 1.7] {
            let (v, d) = huber_match_grad(r, kind);
            crate::support::same_value("huber_match", v, huber_match(r, kind))?;
            let want = crate::support::fd_grad(|q| huber_match(q[0], kind), &[r]);
            crate::support::close("huber_match", &[d], &want, 1e-6)?;
        }
    }
    Ok(())
}
