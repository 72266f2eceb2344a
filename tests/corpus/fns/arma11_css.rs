use autograd::differentiable;

/// Concentrated Gaussian log-likelihood (negated) of an ARMA(1,1) with
/// intercept by conditional sum of squares: e_t = y_t − c − φ y_{t−1} − θ e_{t−1}, e_0 = 0.
#[differentiable]
pub fn arma11_css(c: f64, phi: f64, theta: f64, #[constant] y: &[f64]) -> f64 {
    let mut e_prev = 0.0;
    let mut css = 0.0;
    for w in y.windows(2) {
        let e = w[1] - c - phi * w[0] - theta * e_prev;
        css += e * e;
        e_prev = e;
    }
    let n = (y.len() - 1) as f64;
    0.5 * n * (css / n).ln()
}

pub fn check() -> Result<(), String> {
    let y = [0.2, 0.5, -0.1, 0.3, 0.9, 0.4, -0.3, 0.1, 0.6, 0.2];
    for x in [[0.1, 0.4, 0.2], [0.05, -0.3, 0.6]] {
        let (v, dc, dphi, dtheta) = arma11_css_grad(x[0], x[1], x[2], &y);
        crate::support::same_value("arma", v, arma11_css(x[0], x[1], x[2], &y))?;
        let want = crate::support::fd_grad(|q| arma11_css(q[0], q[1], q[2], &y), &x);
        crate::support::close("arma11_css", &[dc, dphi, dtheta], &want, 1e-6)?;
    }
    Ok(())
}
