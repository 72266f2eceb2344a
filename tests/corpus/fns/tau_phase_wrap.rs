use autograd::differentiable;
use std::f64::consts::TAU;

/// Phase-locking loss: mean of 1 - cos of the phase error of a sinusoid fit.
#[differentiable]
pub fn tau_phase_wrap(freq: f64, phase: f64, #[constant] times: &[f64], #[constant] observed: &[f64]) -> f64 {
    let mut loss = 0.0;
    for i in 0..times.len() {
        let model = (TAU * freq * times[i] + phase).rem_euclid(TAU);
        loss += 1.0 - (model - observed[i]).cos();
    }
    loss / times.len() as f64
}

pub fn check() -> Result<(), String> {
    let times = [0.0, 0.1, 0.2, 0.3, 0.4];
    let observed = [0.5, 1.1, 1.8, 2.4, 3.0];
    for p in [[1.0, 0.4], [0.8, 0.6]] {
        let (v, a, b) = tau_phase_wrap_grad(p[0], p[1], &times, &observed);
        crate::support::same_value("phase", v, tau_phase_wrap(p[0], p[1], &times, &observed))?;
        let want = crate::support::fd_grad(|q| tau_phase_wrap(q[0], q[1], &times, &observed), &p);
        crate::support::close("tau_phase_wrap", &[a, b], &want, 1e-6)?;
    }
    Ok(())
}
