use autograd::differentiable;

/// Eccentric anomaly from Kepler's equation M = E - e sin E, fixed Newton iterations.
#[differentiable]
pub fn newton_kepler(mean_anomaly: f64, ecc: f64) -> f64 {
    let mut e = mean_anomaly;
    let mut iter = 0;
    while iter < 20 {
        let f = e - ecc * e.sin() - mean_anomaly;
        let fp = 1.0 - ecc * e.cos();
        e -= f / fp;
        iter += 1;
    }
    e
}

pub fn check() -> Result<(), String> {
    scalar_check!(newton_kepler, newton_kepler_grad, 1e-6, [[1.0, 0.1], [2.5, 0.5], [0.3, 0.8]], (mean_anomaly, ecc))
}
