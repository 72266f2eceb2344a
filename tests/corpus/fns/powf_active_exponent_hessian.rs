use autograd::differentiable;

/// Generalised mean of order p of positive values, with p itself a
/// parameter: (Σ wᵢ xᵢ^p)^(1/p), differentiated in x and p.
#[differentiable(hessian)]
pub fn powf_active_exponent_hessian(x: &[f64], p: f64, #[constant] w: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += w[i] * x[i].powf(p);
    }
    s.powf(1.0 / p)
}

pub fn check() -> Result<(), String> {
    let w = [0.2, 0.5, 0.3];
    let z = vec![1.5, 0.7, 2.2, 2.5];
    let f = |q: &[f64]| powf_active_exponent_hessian(&q[..3], q[3], &w);
    let (v, g, h) = powf_active_exponent_hessian_hessian(&z[..3], z[3], &w);
    crate::support::same_value("pmean", v, f(&z))?;
    crate::support::close("pmean grad", g.as_slice(), &crate::support::fd_grad(f, &z), 1e-6)?;
    let gf = |q: &[f64]| {
        let (_, gx, gp) = powf_active_exponent_hessian_grad(&q[..3], q[3], &w);
        let mut out = gx.clone();
        out.push(gp);
        out
    };
    for i in 0..4 {
        let row: Vec<f64> = (0..4).map(|j| h[(i, j)]).collect();
        crate::support::close(&format!("pmean hessian row {i}"), &row, &crate::support::fd_grad(|q| gf(q)[i], &z), 1e-5)?;
    }
    Ok(())
}
