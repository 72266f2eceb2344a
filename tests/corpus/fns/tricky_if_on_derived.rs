use autograd::differentiable;

/// Branches on derived quantities: which formula applies and which
/// variable is read both depend on values computed from the arguments.
#[differentiable]
pub fn tricky_if_on_derived(x: f64, y: f64) -> f64 {
    let z = x * x - y;
    let w = if z > 1.0 { z.ln() * y } else { (z - 1.0) * x };
    let u = if w < 0.0 { -w } else { w * w };
    let sel = if x * y > 2.0 { x } else { y };
    u + sel * z
}

pub fn check() -> Result<(), String> {
    // z > 1 with w > 0 and xy > 2; z < 1 with w < 0; z < 1 with w > 0.
    scalar_check!(tricky_if_on_derived, tricky_if_on_derived_grad, 1e-6,
        [[2.5, 1.2], [0.8, 0.5], [-0.7, 0.9], [3.0, -2.0]],
        (x, y))
}
