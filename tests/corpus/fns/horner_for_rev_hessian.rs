use autograd::differentiable;

/// Horner evaluation with a `for &c in coeffs.iter().rev()` loop; both
/// the coefficients and the point are differentiable.
#[differentiable(hessian)]
pub fn horner_for_rev_hessian(coeffs: &[f64], x: f64) -> f64 {
    let mut acc = 0.0;
    for &c in coeffs.iter().rev() {
        acc = acc * x + c;
    }
    acc
}

pub fn check() -> Result<(), String> {
    let c = vec![0.5, -1.0, 0.25, 2.0];
    let x = 0.7;
    let (v, g, h) = horner_for_rev_hessian_hessian(&c, x);
    crate::support::same_value("horner", v, horner_for_rev_hessian(&c, x))?;
    let mut p = c.clone();
    p.push(x);
    let f = |q: &[f64]| horner_for_rev_hessian(&q[..4], q[4]);
    crate::support::close("horner grad", g.as_slice(), &crate::support::fd_grad(f, &p), 1e-6)?;
    // Closed form: ∂²/∂x² = Σ k(k−1) c_k x^{k−2}; ∂²/∂c_k∂x = k x^{k−1}; ∂²/∂c² = 0.
    let mut want = vec![vec![0.0; 5]; 5];
    for k in 0..4 {
        let d = k as f64 * x.powi(k as i32 - 1);
        want[k][4] = if k == 0 { 0.0 } else { d };
        want[4][k] = want[k][4];
    }
    want[4][4] = (2..4).map(|k| (k * (k - 1)) as f64 * c[k] * x.powi(k as i32 - 2)).sum();
    for i in 0..5 {
        let row: Vec<f64> = (0..5).map(|j| h[(i, j)]).collect();
        crate::support::close(&format!("horner hessian row {i}"), &row, &want[i], 1e-12)?;
    }
    Ok(())
}
