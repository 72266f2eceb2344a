use autograd::differentiable;

/// Price of a bond whose schedule arrives interleaved as (time, amount, time,
/// amount, ...), discounted on a level/slope curve plus a credit spread.
#[differentiable]
pub fn cashflows_interleaved_chunks(level: f64, slope: f64, spread: f64, #[constant] schedule: &[f64], #[constant] tau: f64) -> f64 {
    schedule
        .chunks_exact(2)
        .map(|tc| {
            let (t, amount) = (tc[0], tc[1]);
            let x = t / tau;
            let zero = level + slope * (1.0 - (-x).exp()) / x;
            amount * (-(zero + spread) * t).exp()
        })
        .sum()
}

pub fn check() -> Result<(), String> {
    let schedule = [0.5, 2.0, 1.0, 2.0, 1.5, 2.0, 2.0, 2.0, 2.5, 2.0, 3.0, 102.0];
    for x in [[0.03, -0.01, 0.015], [0.045, 0.008, 0.002]] {
        let (v, dl, ds, dz) = cashflows_interleaved_chunks_grad(x[0], x[1], x[2], &schedule, 2.0);
        crate::support::same_value("bond", v, cashflows_interleaved_chunks(x[0], x[1], x[2], &schedule, 2.0))?;
        let want = crate::support::fd_grad(|q| cashflows_interleaved_chunks(q[0], q[1], q[2], &schedule, 2.0), &x);
        crate::support::close("cashflows_interleaved_chunks", &[dl, ds, dz], &want, 1e-6)?;
    }
    Ok(())
}
