use autograd::differentiable;

/// Integer powers of negative numbers (odd, even, negative exponents) and
/// `abs` of negative values, at points away from zero.
#[differentiable]
pub fn tricky_powi_negative_abs(x: f64, y: f64) -> f64 {
    let p = x.powi(3) + x.powi(-2) + (x * y).powi(4) - y.powi(5) + (x - y).powi(-3);
    let q = (x - y).abs() * x.abs().sqrt() + (x * y).abs().ln();
    let r = x.abs().powi(3) + (-x).powi(2) + y.abs().powf(1.5);
    p + q + r
}

pub fn check() -> Result<(), String> {
    scalar_check!(tricky_powi_negative_abs, tricky_powi_negative_abs_grad, 1e-6,
        [[-1.3, 0.4], [-0.7, -2.1], [1.2, -0.5]],
        (x, y))
}
