use autograd::differentiable;

/// Hagan's SABR implied volatility (β = 1 case) away from the money.
#[differentiable]
pub fn sabr_vol(f: f64, k: f64, t: f64, alpha: f64, rho: f64, nu: f64) -> f64 {
    let log_fk = (f / k).ln();
    let z = nu / alpha * log_fk;
    let x = (((1.0 - 2.0 * rho * z + z * z).sqrt() + z - rho) / (1.0 - rho)).ln();
    let correction = 1.0 + (rho * nu * alpha / 4.0 + (2.0 - 3.0 * rho * rho) * nu * nu / 24.0) * t;
    alpha * z / x * correction
}

pub fn check() -> Result<(), String> {
    scalar_check!(sabr_vol, sabr_vol_grad, 1e-6, [[0.03, 0.035, 1.0, 0.2, -0.3, 0.5], [100.0, 90.0, 2.0, 0.25, 0.1, 0.8]], (f, k, t, alpha, rho, nu))
}
