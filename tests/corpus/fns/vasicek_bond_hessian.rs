use autograd::differentiable;

/// Vasicek zero-coupon bond price, with the Hessian for a convexity report.
#[differentiable(hessian)]
pub fn vasicek_bond_hessian(r0: f64, a: f64, b: f64, sigma: f64, #[constant] t: f64) -> f64 {
    let bt = (1.0 - (-a * t).exp()) / a;
    let ln_a = (b - sigma * sigma / (2.0 * a * a)) * (bt - t) - sigma * sigma * bt * bt / (4.0 * a);
    (ln_a - bt * r0).exp()
}

pub fn check() -> Result<(), String> {
    for p in [[0.03, 0.5, 0.04, 0.01], [0.05, 1.2, 0.03, 0.02]] {
        let f = |q: &[f64]| vasicek_bond_hessian(q[0], q[1], q[2], q[3], 5.0);
        let g = |q: &[f64]| {
            let (_, a, b, c, d) = vasicek_bond_hessian_grad(q[0], q[1], q[2], q[3], 5.0);
            [a, b, c, d]
        };
        let (v, grad, hess) = vasicek_bond_hessian_hessian(p[0], p[1], p[2], p[3], 5.0);
        crate::support::same_value("vasicek", v, f(&p))?;
        crate::support::close("vasicek grad", grad.as_slice(), &crate::support::fd_grad(f, &p), 1e-6)?;
        for i in 0..4 {
            let row: Vec<f64> = (0..4).map(|j| hess[(i, j)]).collect();
            crate::support::close(&format!("vasicek hessian row {i}"), &row, &crate::support::fd_grad(|q| g(q)[i], &p), 1e-5)?;
        }
    }
    Ok(())
}
