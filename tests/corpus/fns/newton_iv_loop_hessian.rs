use autograd::differentiable;
use autograd::special::{norm_cdf, norm_pdf};

#[differentiable(hessian)]
pub fn bs_call(s: f64, k: f64, t: f64, vol: f64) -> f64 {
    let sd = vol * t.sqrt();
    let d1 = (s / k).ln() / sd + 0.5 * sd;
    s * norm_cdf(d1) - k * norm_cdf(d1 - sd)
}

/// Implied volatility by Newton's method, `for` with a tolerance `break`;
/// the result depends on the price through the iterates.
#[differentiable(hessian)]
pub fn newton_iv_loop_hessian(price: f64, s: f64, #[constant] k: f64, #[constant] t: f64) -> f64 {
    let mut vol = 0.3;
    for _ in 0..50 {
        let sd = vol * t.sqrt();
        let d1 = (s / k).ln() / sd + 0.5 * sd;
        let vega = s * norm_pdf(d1) * t.sqrt();
        let diff = bs_call(s, k, t, vol) - price;
        vol -= diff / vega;
        if diff.abs() < 1e-14 {
            break;
        }
    }
    vol
}

pub fn check() -> Result<(), String> {
    for p in [[10.0, 100.0], [6.5, 95.0]] {
        let f = |q: &[f64]| newton_iv_loop_hessian(q[0], q[1], 100.0, 1.0);
        let g = |q: &[f64]| {
            let (_, a, b) = newton_iv_loop_hessian_grad(q[0], q[1], 100.0, 1.0);
            [a, b]
        };
        let (v, a, b) = newton_iv_loop_hessian_grad(p[0], p[1], 100.0, 1.0);
        crate::support::same_value("iv", v, f(&p))?;
        crate::support::close("newton_iv grad", &[a, b], &crate::support::fd_grad(f, &p), 1e-6)?;
        let (_, _, hess) = newton_iv_loop_hessian_hessian(p[0], p[1], 100.0, 1.0);
        for i in 0..2 {
            let row = [hess[(i, 0)], hess[(i, 1)]];
            crate::support::close(&format!("newton_iv hessian row {i}"), &row, &crate::support::fd_grad(|q| g(q)[i], &p), 1e-5)?;
        }
    }
    Ok(())
}
