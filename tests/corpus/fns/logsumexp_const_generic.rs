use autograd::differentiable;
use autograd::num_traits::Float;

/// Numerically stable log-sum-exp over a fixed number of scores, generic
/// over the float type and the count.
#[differentiable(jvp)]
pub fn logsumexp<T: Float, const N: usize>(scores: &[T; N]) -> T {
    let mut m = scores[0];
    for s in scores.iter() {
        m = m.max(*s);
    }
    let mut total = T::zero();
    for s in scores.iter() {
        total = total + (*s - m).exp();
    }
    m + total.ln()
}

pub fn check() -> Result<(), String> {
    let x = [0.3, -1.2, 2.0, 0.7, 1.1];
    let (v, g) = logsumexp_grad(&x);
    crate::support::same_value("lse", v, logsumexp(&x))?;
    let want = crate::support::fd_grad(|q| logsumexp(&[q[0], q[1], q[2], q[3], q[4]]), &x);
    crate::support::close("logsumexp", &g, &want, 1e-6)?;
    let (_, t) = logsumexp_jvp(&x, &[1.0, 0.0, 0.0, 0.0, 0.0]);
    crate::support::close("logsumexp jvp", &[t], &[g[0]], 1e-12)?;
    let (_, g32) = logsumexp_grad(&[0.5f32, 1.5]);
    let want32 = [1.0 / (1.0 + 1.0f64.exp()), 1.0 / (1.0 + (-1.0f64).exp())];
    crate::support::close("logsumexp f32", &[g32[0] as f64, g32[1] as f64], &want32, 1e-6)
}
