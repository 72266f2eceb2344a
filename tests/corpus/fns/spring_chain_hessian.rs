use autograd::differentiable;

/// Energy of a chain of springs with both ends pinned; the Hessian is the
/// stiffness matrix (tridiagonal for linear springs, here with a quartic
/// hardening term).
#[differentiable(hessian)]
pub fn spring_chain_hessian(pos: &[f64], #[constant] k: f64, #[constant] rest: f64, #[constant] length: f64) -> f64 {
    let n = pos.len();
    let mut e = 0.0;
    for i in 0..=n {
        let left = if i == 0 { 0.0 } else { pos[i - 1] };
        let right = if i == n { length } else { pos[i] };
        let stretch = right - left - rest;
        e += 0.5 * k * stretch * stretch + 0.25 * stretch.powi(4);
    }
    e
}

pub fn check() -> Result<(), String> {
    let x = vec![0.9, 2.2, 2.8, 4.1];
    let (v, g, h) = spring_chain_hessian_hessian(&x, 3.0, 1.0, 5.0);
    crate::support::same_value("chain", v, spring_chain_hessian(&x, 3.0, 1.0, 5.0))?;
    let gf = |q: &[f64]| spring_chain_hessian_grad(q, 3.0, 1.0, 5.0).1;
    crate::support::close("chain grad", g.as_slice(), &crate::support::fd_grad(|q| spring_chain_hessian(q, 3.0, 1.0, 5.0), &x), 1e-6)?;
    for i in 0..x.len() {
        let row: Vec<f64> = (0..x.len()).map(|j| h[(i, j)]).collect();
        crate::support::close(&format!("chain hessian row {i}"), &row, &crate::support::fd_grad(|q| gf(q)[i], &x), 1e-5)?;
    }
    Ok(())
}
