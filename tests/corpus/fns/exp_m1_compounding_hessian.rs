use autograd::differentiable;

/// Converts a continuously compounded rate to simple and m-times-a-year
/// compounding with `exp_m1` and `ln_1p`, and returns a basis spread.
#[differentiable(hessian)]
pub fn exp_m1_compounding_hessian(r_cont: f64, t: f64, #[constant] m: f64) -> f64 {
    let simple = (r_cont * t).exp_m1() / t;
    let periodic = m * (r_cont / m).exp_m1();
    let back = m * (periodic / m).ln_1p();
    (simple - periodic) * 1e4 + (back - r_cont) * 1e4
}

pub fn check() -> Result<(), String> {
    for p in [[0.03, 2.0], [0.0005, 0.5]] {
        let f = |q: &[f64]| exp_m1_compounding_hessian(q[0], q[1], 4.0);
        let g = |q: &[f64]| {
            let (_, a, b) = exp_m1_compounding_hessian_grad(q[0], q[1], 4.0);
            [a, b]
        };
        let (v, grad, h) = exp_m1_compounding_hessian_hessian(p[0], p[1], 4.0);
        crate::support::same_value("comp", v, f(&p))?;
        crate::support::close("comp grad", grad.as_slice(), &crate::support::fd_grad(f, &p), 1e-6)?;
        for i in 0..2 {
            crate::support::close(&format!("comp hessian row {i}"), &[h[(i, 0)], h[(i, 1)]], &crate::support::fd_grad(|q| g(q)[i], &p), 1e-5)?;
        }
    }
    Ok(())
}
