use autograd::differentiable;
use num_traits::Float;

#[differentiable]
pub fn generic_rosenbrock<T: Float>(x: &[T]) -> T {
    let mut s = T::zero();
    let hundred = T::from(100.0).unwrap();
    for i in 0..x.len() - 1 {
        let a = x[i + 1] - x[i] * x[i];
        let b = T::one() - x[i];
        s = s + hundred * a * a + b * b;
    }
    s
}

pub fn check() -> Result<(), String> {
    for x in [vec![1.2, 0.8, -0.5], vec![-1.0, 1.0, 0.3, 0.9]] {
        let (v, g) = generic_rosenbrock_grad(&x[..]);
        crate::support::same_value("rosen", v, generic_rosenbrock(&x[..]))?;
        let want = crate::support::fd_grad(|q| generic_rosenbrock(q), &x);
        crate::support::close("generic_rosenbrock", &g, &want, 1e-6)?;
    }
    Ok(())
}
