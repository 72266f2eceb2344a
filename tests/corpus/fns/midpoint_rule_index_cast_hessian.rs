use autograd::differentiable;

/// Survival probability under a hazard curve h(t) = a + b·t + c·e^{−t},
/// integrated by the midpoint rule with `(i as f64 + 0.5) * dt`.
#[differentiable(hessian)]
pub fn midpoint_rule_index_cast_hessian(a: f64, b: f64, c: f64, #[constant] t: f64, #[constant] n: usize) -> f64 {
    let dt = t / n as f64;
    let mut integral = 0.0;
    for i in 0..n {
        let s = (i as f64 + 0.5) * dt;
        integral += (a + b * s + c * (-s).exp()) * dt;
    }
    (-integral).exp()
}

pub fn check() -> Result<(), String> {
    let p = [0.01, 0.002, 0.005];
    let f = |q: &[f64]| midpoint_rule_index_cast_hessian(q[0], q[1], q[2], 5.0, 50);
    let g = |q: &[f64]| {
        let (_, a, b, c) = midpoint_rule_index_cast_hessian_grad(q[0], q[1], q[2], 5.0, 50);
        [a, b, c]
    };
    let (v, grad, h) = midpoint_rule_index_cast_hessian_hessian(p[0], p[1], p[2], 5.0, 50);
    crate::support::same_value("survival", v, f(&p))?;
    crate::support::close("survival grad", grad.as_slice(), &crate::support::fd_grad(f, &p), 1e-6)?;
    for i in 0..3 {
        crate::support::close(&format!("survival hessian row {i}"), &[h[(i, 0)], h[(i, 1)], h[(i, 2)]], &crate::support::fd_grad(|q| g(q)[i], &p), 1e-5)?;
    }
    Ok(())
}
