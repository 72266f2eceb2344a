use autograd::differentiable;
use num_traits::Float;

/// Huber loss of residuals, generic over the float type, written with an iterator.
#[differentiable]
pub fn generic_huber_iter<T: Float>(r: &[T], delta: T) -> T {
    let half = T::from(0.5).unwrap();
    r.iter()
        .map(|&e| {
            let a = e.abs();
            if a <= delta { half * e * e } else { delta * (a - half * delta) }
        })
        .fold(T::zero(), |acc, v| acc + v)
}

pub fn check() -> Result<(), String> {
    for (r, d) in [(vec![0.5, -1.3, 0.2, 2.0], 1.0), (vec![0.1, 0.3, -0.4], 0.25)] {
        let (v, g, gd) = generic_huber_iter_grad::<f64>(&r, d);
        crate::support::same_value("huber", v, generic_huber_iter::<f64>(&r, d))?;
        let n = r.len();
        let mut p = r.clone();
        p.push(d);
        let want = crate::support::fd_grad(|q| generic_huber_iter::<f64>(&q[..n], q[n]), &p);
        let mut got = g.clone();
        got.push(gd);
        crate::support::close("generic_huber_iter", &got, &want, 1e-6)?;
    }
    Ok(())
}
