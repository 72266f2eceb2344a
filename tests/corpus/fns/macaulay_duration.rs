use autograd::differentiable;

/// Macaulay duration: present-value-weighted mean time of the cash flows.
#[differentiable]
pub fn macaulay_duration(y: f64, #[constant] times: &[f64], #[constant] flows: &[f64]) -> f64 {
    let mut pv = 0.0;
    let mut weighted = 0.0;
    for i in 0..times.len() {
        let df = (1.0 + y).powf(-times[i]);
        pv += flows[i] * df;
        weighted += times[i] * flows[i] * df;
    }
    weighted / pv
}

pub fn check() -> Result<(), String> {
    let times = [1.0, 2.0, 3.0, 4.0, 5.0];
    let flows = [4.0, 4.0, 4.0, 4.0, 104.0];
    for y in [0.02, 0.05, 0.09] {
        let (v, dy) = macaulay_duration_grad(y, &times, &flows);
        crate::support::same_value("duration", v, macaulay_duration(y, &times, &flows))?;
        let want = crate::support::fd_grad(|q| macaulay_duration(q[0], &times, &flows), &[y]);
        crate::support::close("macaulay_duration", &[dy], &want, 1e-6)?;
    }
    Ok(())
}
