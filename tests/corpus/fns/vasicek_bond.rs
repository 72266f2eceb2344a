use autograd::differentiable;

/// Zero-coupon bond price under the Vasicek short-rate model.
#[differentiable]
pub fn vasicek_bond(r0: f64, kappa: f64, theta: f64, sigma: f64, t: f64) -> f64 {
    let b = (1.0 - (-kappa * t).exp()) / kappa;
    let a = (theta - sigma * sigma / (2.0 * kappa * kappa)) * (b - t)
        - sigma * sigma * b * b / (4.0 * kappa);
    (a - b * r0).exp()
}

pub fn check() -> Result<(), String> {
    scalar_check!(vasicek_bond, vasicek_bond_grad, 1e-6, [[0.03, 0.5, 0.04, 0.01, 5.0], [0.01, 1.2, 0.05, 0.02, 2.0]], (r0, kappa, theta, sigma, t))
}
