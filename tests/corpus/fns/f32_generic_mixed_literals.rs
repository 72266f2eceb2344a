use autograd::differentiable;
use num_traits::Float;

/// A generic softplus-regularised loss with literals converted through
/// `T::from`.
#[differentiable]
pub fn f32_generic_mixed_literals<T: Float>(x: &[T], lambda: T) -> T {
    let half = T::from(0.5).unwrap();
    let mut s = T::zero();
    for &v in x {
        s = s + half * v * v + lambda * (T::one() + v.exp()).ln();
    }
    s
}

pub fn check() -> Result<(), String> {
    let x = [0.3, -0.7, 1.2];
    let (v, g, dl) = f32_generic_mixed_literals_grad(&x, 0.1f64);
    crate::support::same_value("generic", v, f32_generic_mixed_literals(&x, 0.1))?;
    let mut all = g.clone();
    all.push(dl);
    let want = crate::support::fd_grad(|q| f32_generic_mixed_literals(&q[..3], q[3]), &[0.3, -0.7, 1.2, 0.1]);
    crate::support::close("generic", &all, &want, 1e-6)?;
    Ok(())
}
