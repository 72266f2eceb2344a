use autograd::differentiable;

/// A fixed-leg schedule: payment times in years (the first is the start).
#[derive(Clone, Debug)]
pub struct Schedule {
    pub times: Vec<f64>,
    pub notional: f64,
}

/// Value of a payer swap on a flat continuously compounded curve: float minus fixed.
#[differentiable]
pub fn swap_schedule_struct(rate: f64, fixed: f64, #[constant] sched: &Schedule) -> f64 {
    let df = |t: f64| (-rate * t).exp();
    let annuity: f64 = sched.times.windows(2).map(|w| (w[1] - w[0]) * df(w[1])).sum();
    let start = sched.times[0];
    let end = sched.times[sched.times.len() - 1];
    let float_leg = df(start) - df(end);
    sched.notional * (float_leg - fixed * annuity)
}

pub fn check() -> Result<(), String> {
    let sched = Schedule { times: vec![0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0], notional: 1e6 };
    for p in [[0.03, 0.025], [0.05, 0.055]] {
        let (v, a, b) = swap_schedule_struct_grad(p[0], p[1], &sched);
        crate::support::same_value("swap", v, swap_schedule_struct(p[0], p[1], &sched))?;
        let want = crate::support::fd_grad(|q| swap_schedule_struct(q[0], q[1], &sched), &p);
        crate::support::close("swap_schedule_struct", &[a, b], &want, 1e-6)?;
    }
    Ok(())
}
