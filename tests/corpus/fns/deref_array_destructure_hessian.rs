use autograd::differentiable;

/// Rosenbrock-like valley in three variables taken by reference to an array
/// and destructured with `let [a, b, c] = *p;`.
#[differentiable(hessian)]
pub fn deref_array_destructure_hessian(p: &[f64; 3]) -> f64 {
    let [a, b, c] = *p;
    (1.0 - a).powi(2) + 100.0 * (b - a * a).powi(2) + 50.0 * (c - b * b).powi(2)
}

pub fn check() -> Result<(), String> {
    let p = [0.8, 0.7, 0.4];
    let (v, g, h) = deref_array_destructure_hessian_hessian(&p);
    crate::support::same_value("valley", v, deref_array_destructure_hessian(&p))?;
    let f = |q: &[f64]| deref_array_destructure_hessian(&[q[0], q[1], q[2]]);
    crate::support::close("valley grad", g.as_slice(), &crate::support::fd_grad(f, &p), 1e-6)?;
    let (a, b, c) = (p[0], p[1], p[2]);
    // Closed form.
    let want = [
        [2.0 - 400.0 * (b - a * a) + 800.0 * a * a, -400.0 * a, 0.0],
        [-400.0 * a, 200.0 - 200.0 * (c - b * b) + 400.0 * b * b, -200.0 * b],
        [0.0, -200.0 * b, 100.0],
    ];
    for i in 0..3 {
        crate::support::close(&format!("valley hessian row {i}"), &[h[(i, 0)], h[(i, 1)], h[(i, 2)]], &want[i], 1e-12)?;
    }
    Ok(())
}
