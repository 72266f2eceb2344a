use autograd::differentiable;

/// Black–Scholes straddle with a logistic CDF stored in a `let` closure and
/// called four times; the Hessian gives gamma and vanna at once.
#[differentiable(hessian)]
pub fn closure_cdf_reused_hessian(s: f64, vol: f64, #[constant] k: f64, #[constant] t: f64) -> f64 {
    let cdf = |x: f64| 1.0 / (1.0 + (-1.702 * x).exp());
    let sd = vol * t.sqrt();
    let d1 = (s / k).ln() / sd + 0.5 * sd;
    let d2 = d1 - sd;
    let call = s * cdf(d1) - k * cdf(d2);
    let put = k * cdf(-d2) - s * cdf(-d1);
    call + put
}

pub fn check() -> Result<(), String> {
    let p = [105.0, 0.25];
    let f = |q: &[f64]| closure_cdf_reused_hessian(q[0], q[1], 100.0, 0.5);
    let g = |q: &[f64]| {
        let (_, a, b) = closure_cdf_reused_hessian_grad(q[0], q[1], 100.0, 0.5);
        [a, b]
    };
    let (v, grad, h) = closure_cdf_reused_hessian_hessian(p[0], p[1], 100.0, 0.5);
    crate::support::same_value("straddle", v, f(&p))?;
    crate::support::close("straddle grad", grad.as_slice(), &crate::support::fd_grad(f, &p), 1e-6)?;
    for i in 0..2 {
        crate::support::close(&format!("straddle hessian row {i}"), &[h[(i, 0)], h[(i, 1)]], &crate::support::fd_grad(|q| g(q)[i], &p), 1e-5)?;
    }
    Ok(())
}
