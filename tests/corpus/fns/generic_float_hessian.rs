use autograd::differentiable;
use num_traits::Float;

/// Student-t negative log-likelihood (ν fixed) generic over the float type,
/// with `hessian` for a Newton fit of location and log-scale.
#[differentiable(hessian)]
pub fn generic_float_hessian<T: Float>(loc: T, log_scale: T, xs: &[T], nu: T) -> T {
    let half = T::from(0.5).unwrap();
    let scale = log_scale.exp();
    let mut nll = T::zero();
    for &x in xs {
        let z = (x - loc) / scale;
        nll = nll + log_scale + half * (nu + T::one()) * (T::one() + z * z / nu).ln();
    }
    nll
}

pub fn check() -> Result<(), String> {
    let xs = [0.3, -1.2, 0.8, 2.5, 0.1];
    let p = [0.2, -0.1];
    let f = |q: &[f64]| generic_float_hessian::<f64>(q[0], q[1], &xs, 4.0);
    let g = |q: &[f64]| {
        let (_, a, b, _, _) = generic_float_hessian_grad::<f64>(q[0], q[1], &xs, 4.0);
        [a, b]
    };
    let (v, grad, h) = generic_float_hessian_hessian::<f64>(p[0], p[1], &xs, 4.0);
    crate::support::same_value("t nll", v, f(&p))?;
    crate::support::close("t grad", &grad.as_slice()[..2], &crate::support::fd_grad(f, &p), 1e-6)?;
    for i in 0..2 {
        crate::support::close(&format!("t hessian row {i}"), &[h[(i, 0)], h[(i, 1)]], &crate::support::fd_grad(|q| g(q)[i], &p), 1e-5)?;
    }
    Ok(())
}
