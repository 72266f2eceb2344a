use autograd::differentiable;

/// Price and delta of a forward contract with dividends, returned as a
/// tuple; checked through the generated Jacobian.
#[differentiable]
pub fn tuple_result_jacobian(s: f64, r: f64, q: f64, #[constant] t: f64) -> (f64, f64) {
    let fwd = s * ((r - q) * t).exp();
    let delta = ((r - q) * t).exp();
    (fwd, delta)
}

pub fn check() -> Result<(), String> {
    let p = [100.0, 0.03, 0.01];
    let plain = |x: &[f64]| {
        let (a, b) = tuple_result_jacobian(x[0], x[1], x[2], 2.0);
        vec![a, b]
    };
    let jac = crate::support::fd_jacobian(plain, &p);
    let (value, jm) = tuple_result_jacobian_jacobian(p[0], p[1], p[2], 2.0);
    crate::support::same_value("fwd", value.0, plain(&p)[0])?;
    for k in 0..2 {
        let row: Vec<f64> = (0..3).map(|j| jm[(k, j)]).collect();
        crate::support::close(&format!("tuple_result_jacobian row {k}"), &row, &jac[k], 1e-6)?;
    }
    Ok(())
}
