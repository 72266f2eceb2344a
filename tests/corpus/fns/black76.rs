use autograd::differentiable;

fn phi(x: f64) -> f64 {
    0.5 * (1.0 + libm_erf(x / std::f64::consts::SQRT_2))
}

fn libm_erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.5 * x.abs());
    let y = 1.0 - t * (-x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))))).exp();
    if x >= 0.0 { y } else { -y }
}

/// Black-76 caplet on a forward rate; the CDF helper is a plain function.
#[differentiable]
pub fn black76(forward: f64, strike: f64, vol: f64, expiry: f64, df: f64) -> f64 {
    let sd = vol * expiry.sqrt();
    let d1 = (forward / strike).ln() / sd + 0.5 * sd;
    df * (forward * phi(d1) - strike * phi(d1 - sd))
}

pub fn check() -> Result<(), String> {
    scalar_check!(black76, black76_grad, 1e-6, [[0.03, 0.025, 0.3, 1.0, 0.97], [0.05, 0.06, 0.2, 2.0, 0.9]], (forward, strike, vol, expiry, df))
}
