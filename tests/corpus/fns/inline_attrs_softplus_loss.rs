use autograd::differentiable;

/// Softplus, linear beyond 30 to avoid overflow.
#[inline]
#[must_use]
#[differentiable]
pub fn softplus(x: f64) -> f64 {
    if x > 30.0 { x } else { x.exp().ln_1p() }
}

/// Mean logistic (softplus-of-margin) loss of a one-feature linear model.
#[differentiable]
#[allow(clippy::needless_range_loop)]
#[inline(never)]
pub fn inline_attrs_softplus_loss(w: &[f64], #[constant] xs: &[f64], #[constant] ys: &[f64]) -> f64 {
    let n = xs.len();
    let mut total = 0.0;
    for i in 0..n {
        let margin = ys[i] * (w[0] + w[1] * xs[i]);
        total += softplus(-margin);
    }
    total / n as f64
}

pub fn check() -> Result<(), String> {
    let xs = [0.5, -1.2, 2.0, 0.1, -0.7];
    let ys = [1.0, -1.0, 1.0, -1.0, 1.0];
    for w in [vec![0.1, 0.8], vec![-0.4, 2.5]] {
        let (v, g) = inline_attrs_softplus_loss_grad(&w, &xs, &ys);
        crate::support::same_value("softplus loss", v, inline_attrs_softplus_loss(&w, &xs, &ys))?;
        let want = crate::support::fd_grad(|q| inline_attrs_softplus_loss(q, &xs, &ys), &w);
        crate::support::close("inline_attrs_softplus_loss", &g, &want, 1e-6)?;
    }
    Ok(())
}
