use autograd::differentiable;

/// Damped Newton for the root of x³ + a·x − b inside a `for` over the
/// damping schedule, an inner `while` left by `break`; result's Hessian in (a, b).
#[differentiable(hessian)]
pub fn while_break_in_for_hessian(a: f64, b: f64) -> f64 {
    let mut x = 1.0;
    for damping in [0.5, 0.8, 1.0] {
        let mut it = 0;
        while it < 30 {
            let f = x * x * x + a * x - b;
            let step = f / (3.0 * x * x + a);
            x -= damping * step;
            if step.abs() < 1e-15 {
                break;
            }
            it += 1;
        }
    }
    x
}

pub fn check() -> Result<(), String> {
    let p = [1.5, 4.0];
    let f = |q: &[f64]| while_break_in_for_hessian(q[0], q[1]);
    let (v, grad, h) = while_break_in_for_hessian_hessian(p[0], p[1]);
    crate::support::same_value("root", v, f(&p))?;
    // Implicit function: 3x² + a = F_x; dx/da = −x/F_x, dx/db = 1/F_x.
    let x = v;
    let fx = 3.0 * x * x + p[0];
    crate::support::close("root grad", grad.as_slice(), &[-x / fx, 1.0 / fx], 1e-9)?;
    let g = |q: &[f64]| {
        let (_, a, b) = while_break_in_for_hessian_grad(q[0], q[1]);
        [a, b]
    };
    for i in 0..2 {
        crate::support::close(&format!("root hessian row {i}"), &[h[(i, 0)], h[(i, 1)]], &crate::support::fd_grad(|q| g(q)[i], &p), 1e-5)?;
    }
    Ok(())
}
