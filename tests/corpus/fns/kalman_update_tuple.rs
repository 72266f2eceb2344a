use autograd::differentiable;

/// One measurement update of a scalar Kalman filter: (new mean, new variance, log-lik term).
#[differentiable]
pub fn kalman_update(mean: f64, var: f64, z: f64, r: f64) -> (f64, f64, f64) {
    let s = var + r;
    let k = var / s;
    let innov = z - mean;
    let ll = -0.5 * ((2.0 * std::f64::consts::PI * s).ln() + innov * innov / s);
    (mean + k * innov, (1.0 - k) * var, ll)
}

/// Random-walk-plus-noise log-likelihood; the update helper returns a tuple.
#[differentiable]
pub fn kalman_update_tuple(q: f64, r: f64, #[constant] zs: &[f64]) -> f64 {
    let mut mean = 0.0;
    let mut var = 10.0;
    let mut total = 0.0;
    for &z in zs {
        var += q;
        let (m, v, ll) = kalman_update(mean, var, z, r);
        mean = m;
        var = v;
        total += ll;
    }
    total
}

pub fn check() -> Result<(), String> {
    let zs = [0.3, 0.5, 0.2, 0.9, 1.1, 0.8, 1.4];
    for p in [[0.1, 0.3], [0.02, 1.0]] {
        let (v, a, b) = kalman_update_tuple_grad(p[0], p[1], &zs);
        crate::support::same_value("kalman", v, kalman_update_tuple(p[0], p[1], &zs))?;
        let want = crate::support::fd_grad(|x| kalman_update_tuple(x[0], x[1], &zs), &p);
        crate::support::close("kalman_update_tuple", &[a, b], &want, 1e-6)?;
    }
    Ok(())
}
