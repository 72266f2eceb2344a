use autograd::differentiable;

/// `max`/`min` whose two sides share a variable: the selected side's
/// derivative must be taken whole, not just the shared variable's share.
#[differentiable]
pub fn tricky_max_same_var(x: f64, y: f64) -> f64 {
    let a = x.max(x * x);
    let b = (x * y).max(x);
    let c = y.min(y.sin());
    let d = f64::max(x - y, y - x);
    a + b * c + d
}

pub fn check() -> Result<(), String> {
    scalar_check!(tricky_max_same_var, tricky_max_same_var_grad, 1e-6,
        [[2.0, 0.7], [0.5, 3.0], [-1.5, -0.8]],
        (x, y))
}
