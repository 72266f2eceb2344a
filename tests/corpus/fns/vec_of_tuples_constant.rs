use autograd::differentiable;

/// Weighted least squares over observations given as `(x, y, w)` tuples.
#[differentiable]
pub fn vec_of_tuples_constant(a: f64, b: f64, #[constant] obs: &[(f64, f64, f64)]) -> f64 {
    obs.iter()
        .map(|&(x, y, w)| {
            let r = a * x + b - y;
            w * r * r
        })
        .sum()
}

pub fn check() -> Result<(), String> {
    let obs = [(0.0, 1.0, 1.0), (1.0, 2.9, 0.5), (2.0, 5.2, 2.0)];
    let (v, da, db) = vec_of_tuples_constant_grad(1.9, 1.1, &obs);
    crate::support::same_value("wls", v, vec_of_tuples_constant(1.9, 1.1, &obs))?;
    let want = crate::support::fd_grad(|q| vec_of_tuples_constant(q[0], q[1], &obs), &[1.9, 1.1]);
    crate::support::close("wls", &[da, db], &want, 1e-6)?;
    Ok(())
}
