use autograd::differentiable;

/// Methods in path form, as generic-minded code writes them.
#[differentiable]
pub fn path_form_methods(x: f64, y: f64) -> f64 {
    f64::sqrt(f64::powi(x, 2) + f64::powi(y, 2)) + f64::atan(y / x) + f64::cbrt(x * y)
}

pub fn check() -> Result<(), String> {
    scalar_check!(path_form_methods, path_form_methods_grad, 1e-6, [[1.0, 2.0], [3.0, 0.5]], (x, y))
}
