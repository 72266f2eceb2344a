use autograd::differentiable;
use std::f64::consts::PI;

/// Truncated Fourier series of a square wave with a differentiable amplitude decay.
#[differentiable]
pub fn fourier_series_counter(t: f64, decay: f64, #[constant] terms: usize) -> f64 {
    let mut s = 0.0;
    for k in 0..terms {
        let n = (2 * k + 1) as f64;
        s += (-decay * n).exp() * (n * 2.0 * PI * t).sin() / n;
    }
    4.0 / PI * s
}

pub fn check() -> Result<(), String> {
    for p in [[0.13, 0.05], [0.4, 0.2]] {
        let (v, a, b) = fourier_series_counter_grad(p[0], p[1], 12);
        crate::support::same_value("fourier", v, fourier_series_counter(p[0], p[1], 12))?;
        let want = crate::support::fd_grad(|q| fourier_series_counter(q[0], q[1], 12), &p);
        crate::support::close("fourier_series_counter", &[a, b], &want, 1e-6)?;
    }
    Ok(())
}
