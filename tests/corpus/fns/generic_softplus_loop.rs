use autograd::differentiable;
use num_traits::Float;

/// Mean softplus of a linear score, generic, index loop.
#[differentiable]
pub fn generic_softplus_loop<T: Float>(w: &[T], b: T, #[constant] x: &[T]) -> T {
    let mut s = T::zero();
    for i in 0..x.len() {
        let z = w[i] * x[i] + b;
        s = s + z.exp().ln_1p();
    }
    s / T::from(x.len()).unwrap()
}

pub fn check() -> Result<(), String> {
    let x = [0.5, -1.0, 2.0];
    for (w, b) in [(vec![0.3, 0.1, -0.2], 0.5), (vec![1.0, -1.0, 0.5], -0.3)] {
        let (v, gw, gb) = generic_softplus_loop_grad::<f64>(&w, b, &x);
        crate::support::same_value("sp", v, generic_softplus_loop::<f64>(&w, b, &x))?;
        let mut p = w.clone();
        p.push(b);
        let want = crate::support::fd_grad(|q| generic_softplus_loop::<f64>(&q[..3], q[3], &x), &p);
        let mut got = gw.clone();
        got.push(gb);
        crate::support::close("generic_softplus_loop", &got, &want, 1e-6)?;
        let (v32, _, _) = generic_softplus_loop_grad::<f32>(&[0.3, 0.1, -0.2], 0.5, &[0.5, -1.0, 2.0]);
        if (v32 as f64 - generic_softplus_loop::<f64>(&[0.3, 0.1, -0.2], 0.5, &x)).abs() > 1e-5 {
            return Err("f32 value".into());
        }
    }
    Ok(())
}
