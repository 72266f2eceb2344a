use autograd::differentiable;
use std::f64::consts::PI;

const INV_SQRT_2PI: f64 = 0.398_942_280_401_432_7;

#[differentiable]
pub fn normal_pdf(x: f64, mu: f64, sigma: f64) -> f64 {
    let z = (x - mu) / sigma;
    INV_SQRT_2PI / sigma * (-0.5 * z * z).exp() + 0.0 * PI
}

pub fn check() -> Result<(), String> {
    scalar_check!(normal_pdf, normal_pdf_grad, 1e-6, [[0.3, 0.0, 1.0], [2.5, 1.0, 0.7], [-1.0, 0.5, 2.0]], (x, mu, sigma))
}
