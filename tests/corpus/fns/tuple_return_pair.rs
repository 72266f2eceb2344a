use autograd::differentiable;

/// Polar to Cartesian, a tuple result.
#[differentiable]
pub fn tuple_return_pair(r: f64, theta: f64) -> (f64, f64) {
    (r * theta.cos(), r * theta.sin())
}

pub fn check() -> Result<(), String> {
    for p in [[2.0, 0.4], [0.5, 2.5]] {
        let plain = |q: &[f64]| { let (a, b) = tuple_return_pair(q[0], q[1]); vec![a, b] };
        let jac = crate::support::fd_jacobian(plain, &p);
        for (k, seed) in [(1.0, 0.0), (0.0, 1.0)].into_iter().enumerate() {
            let (value, pullback) = tuple_return_pair_vjp(p[0], p[1]);
            let (dr, dt) = pullback(seed);
            let v = [value.0, value.1];
            crate::support::same_value("pair", v[k], plain(&p)[k])?;
            crate::support::close(&format!("tuple_return_pair row {k}"), &[dr, dt], &jac[k], 1e-6)?;
        }
    }
    Ok(())
}
