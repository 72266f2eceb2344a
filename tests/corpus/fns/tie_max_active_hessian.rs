use autograd::differentiable;

/// Smooth-max of two quadratic costs away from their tie, `a.max(b)`
/// between two active values, then a log barrier; with `hessian`.
#[differentiable(hessian)]
pub fn tie_max_active_hessian(x: f64, y: f64) -> f64 {
    let a = (x - 1.0).powi(2) + y * y;
    let b = x * x + (y + 0.5).powi(2);
    let worst = a.max(b);
    worst - (4.0 - x * x - y * y).ln()
}

pub fn check() -> Result<(), String> {
    for p in [[0.2, 0.3], [0.9, -0.6]] {
        let f = |q: &[f64]| tie_max_active_hessian(q[0], q[1]);
        let g = |q: &[f64]| {
            let (_, a, b) = tie_max_active_hessian_grad(q[0], q[1]);
            [a, b]
        };
        let (v, grad, h) = tie_max_active_hessian_hessian(p[0], p[1]);
        crate::support::same_value("minimax", v, f(&p))?;
        crate::support::close("minimax grad", grad.as_slice(), &crate::support::fd_grad(f, &p), 1e-6)?;
        for i in 0..2 {
            crate::support::close(&format!("minimax hessian row {i}"), &[h[(i, 0)], h[(i, 1)]], &crate::support::fd_grad(|q| g(q)[i], &p), 1e-5)?;
        }
    }
    Ok(())
}
