use autograd::differentiable;

/// Square root by Newton's method, stopping on a relative tolerance.
#[differentiable]
pub fn newton_sqrt(a: f64) -> f64 {
    let mut x = if a > 1.0 { a } else { 1.0 };
    loop {
        let next = 0.5 * (x + a / x);
        if (next - x).abs() <= 1e-15 * next {
            return next;
        }
        x = next;
    }
}

pub fn check() -> Result<(), String> {
    scalar_check!(newton_sqrt, newton_sqrt_grad, 1e-6, [[2.0], [0.3], [150.0]], (a))
}
