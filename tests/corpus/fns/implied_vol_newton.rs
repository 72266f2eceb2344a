use autograd::differentiable;

/// Bachelier (normal) price, with a logistic stand-in for the normal CDF, and a few fixed Newton steps for the implied
/// normal volatility: the gradient flows through the iteration.
#[differentiable]
pub fn implied_vol_newton(price: f64, forward: f64, strike: f64, t: f64) -> f64 {
    let mut vol = 0.01;
    for _ in 0..30 {
        let sd = vol * t.sqrt();
        let d = (forward - strike) / sd;
        let pdf = (-0.5 * d * d).exp() / (2.0 * std::f64::consts::PI).sqrt();
        let cdf = 1.0 / (1.0 + (-1.702 * d).exp());
        let model = (forward - strike) * cdf + sd * pdf;
        let vega = t.sqrt() * pdf;
        let step = (model - price) / vega;
        vol -= step;
        if step.abs() < 1e-14 {
            break;
        }
    }
    vol
}

pub fn check() -> Result<(), String> {
    scalar_check!(implied_vol_newton, implied_vol_newton_grad, 1e-5, [[0.0042, 0.03, 0.03, 1.0], [0.006, 0.031, 0.03, 2.0]], (price, forward, strike, t))
}
