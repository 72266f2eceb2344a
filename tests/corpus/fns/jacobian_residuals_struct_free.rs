use autograd::differentiable;

/// Residuals of an exponential decay fit, a `Vec` result with `jvp`.
#[differentiable(jvp)]
pub fn jacobian_residuals_struct_free(p: &[f64], #[constant] t: &[f64], #[constant] y: &[f64]) -> Vec<f64> {
    let mut r = Vec::with_capacity(t.len());
    for (ti, yi) in t.iter().zip(y) {
        r.push(p[0] * (-p[1] * ti).exp() + p[2] - yi);
    }
    r
}

pub fn check() -> Result<(), String> {
    let t = [0.0, 0.5, 1.0, 2.0];
    let y = [3.1, 2.2, 1.7, 1.2];
    let p = [2.0, 0.8, 1.0];
    let (r, j) = jacobian_residuals_struct_free_jacobian(&p, &t, &y);
    let r0 = jacobian_residuals_struct_free(&p, &t, &y);
    for (a, b) in r.iter().zip(&r0) {
        crate::support::same_value("residual", *a, *b)?;
    }
    for k in 0..t.len() {
        let want = crate::support::fd_grad(|q| jacobian_residuals_struct_free(q, &t, &y)[k], &p);
        let got: Vec<f64> = (0..3).map(|c| j[(k, c)]).collect();
        crate::support::close("jacobian row", &got, &want, 1e-6)?;
    }
    Ok(())
}
