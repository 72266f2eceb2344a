use autograd::differentiable;

/// Robust regression objective: Huber loss of the residuals of a line,
/// the branch an `if` on the residual's size.
#[differentiable(hessian)]
pub fn huber_residuals_hessian(slope: f64, intercept: f64, #[constant] xs: &[f64], #[constant] ys: &[f64], #[constant] delta: f64) -> f64 {
    let mut total = 0.0;
    for i in 0..xs.len() {
        let r = ys[i] - (slope * xs[i] + intercept);
        let loss = if r.abs() <= delta { 0.5 * r * r } else { delta * (r.abs() - 0.5 * delta) };
        total += loss;
    }
    total
}

pub fn check() -> Result<(), String> {
    let xs = [0.0, 1.0, 2.0, 3.0, 4.0];
    let ys = [0.1, 1.2, 1.9, 3.2, 9.0];
    let p = [0.9, 0.15];
    let f = |q: &[f64]| huber_residuals_hessian(q[0], q[1], &xs, &ys, 1.0);
    let (v, g, h) = huber_residuals_hessian_hessian(p[0], p[1], &xs, &ys, 1.0);
    crate::support::same_value("huber", v, f(&p))?;
    crate::support::close("huber grad", g.as_slice(), &crate::support::fd_grad(f, &p), 1e-6)?;
    // Closed form: the quadratic points contribute [x², x; x, 1].
    let mut want = [[0.0; 2]; 2];
    for i in 0..xs.len() {
        let r: f64 = ys[i] - (p[0] * xs[i] + p[1]);
        if r.abs() <= 1.0 {
            want[0][0] += xs[i] * xs[i];
            want[0][1] += xs[i];
            want[1][0] += xs[i];
            want[1][1] += 1.0;
        }
    }
    for i in 0..2 {
        crate::support::close(&format!("huber hessian row {i}"), &[h[(i, 0)], h[(i, 1)]], &want[i], 1e-12)?;
    }
    Ok(())
}
