use autograd::differentiable;

/// A periodic penalty with a phase wrapped by `rem_euclid` and `%`.
#[differentiable]
pub fn rem_euclid_phase(theta: f64, w: f64) -> f64 {
    let two_pi = 2.0 * std::f64::consts::PI;
    let phase = (w * theta).rem_euclid(two_pi);
    let other = (theta * 3.0) % 1.5;
    (phase - std::f64::consts::PI).powi(2) + other * w
}

pub fn check() -> Result<(), String> {
    for (t, w) in [(2.3, 1.7), (-4.1, 0.6)] {
        let (v, a, b) = rem_euclid_phase_grad(t, w);
        crate::support::same_value("phase", v, rem_euclid_phase(t, w))?;
        let want = crate::support::fd_grad(|q| rem_euclid_phase(q[0], q[1]), &[t, w]);
        crate::support::close("phase", &[a, b], &want, 1e-6)?;
    }
    Ok(())
}
