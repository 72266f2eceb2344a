use autograd::differentiable;

/// Sag and arc length of a cable hanging as a catenary y = a·cosh(x/a),
/// with `sinh`/`cosh`; the loss fits the parameter a to a measured length
/// and sag.
#[differentiable]
pub fn catenary_sinh_cosh(a: f64, #[constant] span: f64, #[constant] length: f64, #[constant] sag: f64) -> f64 {
    let half = 0.5 * span / a;
    let arc = 2.0 * a * half.sinh();
    let depth = a * (half.cosh() - 1.0);
    (arc - length).powi(2) + (depth - sag).powi(2)
}

pub fn check() -> Result<(), String> {
    scalar_check!(f, f_grad, 1e-6, [[30.0], [12.5]], (a))
}

fn f(a: f64) -> f64 {
    catenary_sinh_cosh(a, 20.0, 21.0, 3.0)
}

fn f_grad(a: f64) -> (f64, f64) {
    catenary_sinh_cosh_grad(a, 20.0, 21.0, 3.0)
}
