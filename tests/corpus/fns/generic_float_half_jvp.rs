use autograd::differentiable;
use num_traits::Float;

/// Smooth hinge (Huberised ReLU) in any float type, constants by
/// `T::from(..).unwrap()`, summed over a slice.
#[differentiable(jvp)]
pub fn generic_float_half_jvp<T: Float>(xs: &[T], margin: T) -> T {
    let half = T::from(0.5).unwrap();
    let mut total = T::zero();
    for &x in xs {
        let z = margin - x;
        let l = if z <= T::zero() {
            T::zero()
        } else if z < T::one() {
            half * z * z
        } else {
            z - half
        };
        total = total + l;
    }
    total / T::from(xs.len()).unwrap()
}

pub fn check() -> Result<(), String> {
    let xs = vec![0.2, 1.7, -0.6, 0.9];
    let (v, gx, gm) = generic_float_half_jvp_grad::<f64>(&xs, 1.0);
    crate::support::same_value("hinge", v, generic_float_half_jvp::<f64>(&xs, 1.0))?;
    let mut p = xs.clone();
    p.push(1.0);
    let want = crate::support::fd_grad(|q| generic_float_half_jvp::<f64>(&q[..4], q[4]), &p);
    let mut got = gx.clone();
    got.push(gm);
    crate::support::close("generic_float_half_jvp", &got, &want, 1e-6)?;
    let dir = [0.3, -0.2, 1.0, 0.5];
    let (_, jt) = generic_float_half_jvp_jvp::<f64>(&xs, 1.0, &dir, 0.7);
    let dot: f64 = want[..4].iter().zip(&dir).map(|(a, b)| a * b).sum::<f64>() + want[4] * 0.7;
    crate::support::close("generic jvp", &[jt], &[dot], 1e-6)?;
    let (v32, _, _) = generic_float_half_jvp_grad::<f32>(&[0.2f32, 1.7, -0.6, 0.9], 1.0);
    if (v32 as f64 - v).abs() > 1e-6 {
        return Err(format!("f32 value {v32} vs {v}"));
    }
    Ok(())
}
