use autograd::differentiable;

/// Nelson–Siegel zero rate at maturity t.
#[differentiable]
pub fn nelson_siegel(beta0: f64, beta1: f64, beta2: f64, tau: f64, t: f64) -> f64 {
    let x = t / tau;
    let decay = (1.0 - (-x).exp()) / x;
    beta0 + beta1 * decay + beta2 * (decay - (-x).exp())
}

pub fn check() -> Result<(), String> {
    scalar_check!(nelson_siegel, nelson_siegel_grad, 1e-6,
        [[0.04, -0.02, 0.01, 1.5, 2.0], [0.03, 0.01, -0.03, 3.0, 10.0], [0.05, -0.01, 0.02, 0.7, 0.25]],
        (beta0, beta1, beta2, tau, t))
}
