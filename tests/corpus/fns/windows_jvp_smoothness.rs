use autograd::differentiable;

/// Second-difference roughness of a curve by `windows(3)`, in forward mode.
#[differentiable(jvp)]
pub fn windows_jvp_smoothness(y: &[f64], lambda: f64) -> f64 {
    let rough: f64 = y.windows(3).map(|w| (w[0] - 2.0 * w[1] + w[2]).powi(2)).sum();
    lambda * rough + y.iter().map(|v| v * v).sum::<f64>()
}

pub fn check() -> Result<(), String> {
    let y = vec![0.1, 0.5, 0.4, 0.9, 1.3, 1.2];
    let (v, gy, gl) = windows_jvp_smoothness_grad(&y, 2.0);
    crate::support::same_value("rough", v, windows_jvp_smoothness(&y, 2.0))?;
    let mut p = y.clone();
    p.push(2.0);
    let want = crate::support::fd_grad(|q| windows_jvp_smoothness(&q[..6], q[6]), &p);
    let mut got = gy.clone();
    got.push(gl);
    crate::support::close("windows_jvp_smoothness", &got, &want, 1e-6)?;
    let dir = [0.5, -0.5, 1.0, 0.0, 0.2, 0.3];
    let (_, jt) = windows_jvp_smoothness_jvp(&y, 2.0, &dir, 0.4);
    let dot: f64 = want[..6].iter().zip(&dir).map(|(a, b)| a * b).sum::<f64>() + 0.4 * want[6];
    crate::support::close("rough jvp", &[jt], &[dot], 1e-6)
}
