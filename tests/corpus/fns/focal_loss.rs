use autograd::differentiable;

#[differentiable]
pub fn focal_loss(logit: f64, #[constant] label: bool, gamma: f64) -> f64 {
    let p = 1.0 / (1.0 + (-logit).exp());
    let pt = if label { p } else { 1.0 - p };
    -(1.0 - pt).powf(gamma) * pt.ln()
}

pub fn check() -> Result<(), String> {
    for label in [true, false] {
        for p in [[0.5, 2.0], [-1.2, 1.5], [2.0, 0.5]] {
            let (v, a, b) = focal_loss_grad(p[0], label, p[1]);
            crate::support::same_value("focal", v, focal_loss(p[0], label, p[1]))?;
            let want = crate::support::fd_grad(|q| focal_loss(q[0], label, q[1]), &p);
            crate::support::close("focal_loss", &[a, b], &want, 1e-6)?;
        }
    }
    Ok(())
}
