use autograd::differentiable;

/// Continuous-to-simple rate conversion and back, written with exp_m1 / ln_1p.
#[differentiable]
pub fn log1p_exp_m1(rate: f64, t: f64) -> f64 {
    let simple = (rate * t).exp_m1() / t;
    (simple * t).ln_1p() / t + simple
}

pub fn check() -> Result<(), String> {
    scalar_check!(log1p_exp_m1, log1p_exp_m1_grad, 1e-6, [[0.03, 1.0], [1e-4, 0.25], [0.2, 5.0]], (rate, t))
}
