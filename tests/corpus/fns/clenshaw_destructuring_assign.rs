use autograd::differentiable;

/// Chebyshev series by Clenshaw's recurrence, the two-term state updated by
/// destructuring assignment `(b1, b2) = (.., b1)`.
#[differentiable(hessian)]
pub fn clenshaw_destructuring_assign(coeffs: &[f64], x: f64) -> f64 {
    let (mut b1, mut b2) = (0.0, 0.0);
    for &c in coeffs.iter().skip(1).rev() {
        (b1, b2) = (2.0 * x * b1 - b2 + c, b1);
    }
    x * b1 - b2 + coeffs[0]
}

pub fn check() -> Result<(), String> {
    let c = vec![0.5, -0.3, 0.8, 0.1, -0.05];
    let x: f64 = 0.35;
    // Closed form: Σ c_k T_k(x), T_k(cos t) = cos(k t).
    let t = x.acos();
    let want_v: f64 = c.iter().enumerate().map(|(k, ck)| ck * (k as f64 * t).cos()).sum();
    let (v, g, h) = clenshaw_destructuring_assign_hessian(&c, x);
    crate::support::same_value("clenshaw", v, clenshaw_destructuring_assign(&c, x))?;
    crate::support::close("clenshaw value vs cos form", &[v], &[want_v], 1e-12)?;
    let mut p = c.clone();
    p.push(x);
    let f = |q: &[f64]| clenshaw_destructuring_assign(&q[..5], q[5]);
    crate::support::close("clenshaw grad", g.as_slice(), &crate::support::fd_grad(f, &p), 1e-6)?;
    let gf = |q: &[f64]| {
        let (_, gc, gx) = clenshaw_destructuring_assign_grad(&q[..5], q[5]);
        let mut o = gc.clone();
        o.push(gx);
        o
    };
    for i in 0..6 {
        let row: Vec<f64> = (0..6).map(|j| h[(i, j)]).collect();
        crate::support::close(&format!("clenshaw hessian row {i}"), &row, &crate::support::fd_grad(|q| gf(q)[i], &p), 1e-5)?;
    }
    Ok(())
}
