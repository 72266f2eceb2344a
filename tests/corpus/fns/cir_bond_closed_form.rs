use autograd::differentiable;

/// CIR zero-coupon bond price P(0, T) = A exp(-B r0).
#[differentiable]
pub fn cir_bond_closed_form(r0: f64, kappa: f64, theta: f64, sigma: f64, t: f64) -> f64 {
    let h = (kappa * kappa + 2.0 * sigma * sigma).sqrt();
    let e = (h * t).exp_m1();
    let denom = 2.0 * h + (kappa + h) * e;
    let b = 2.0 * e / denom;
    let a = (2.0 * h * ((kappa + h) * t / 2.0).exp() / denom).powf(2.0 * kappa * theta / (sigma * sigma));
    a * (-b * r0).exp()
}

pub fn check() -> Result<(), String> {
    scalar_check!(cir_bond_closed_form, cir_bond_closed_form_grad, 1e-6, [[0.03, 0.5, 0.04, 0.1, 5.0], [0.05, 1.2, 0.03, 0.2, 2.0]], (r0, kappa, theta, sigma, t))
}
