use autograd::differentiable;

/// Par CDS spread under a flat hazard rate, quarterly premium leg.
#[differentiable]
pub fn cds_hazard(hazard: f64, rate: f64, #[constant] recovery: f64, #[constant] years: u32) -> f64 {
    let mut premium = 0.0;
    let mut protection = 0.0;
    let dt = 0.25;
    let n = years * 4;
    for i in 1..=n {
        let t = i as f64 * dt;
        let surv_prev = (-hazard * (t - dt)).exp();
        let surv = (-hazard * t).exp();
        let df = (-rate * t).exp();
        premium += dt * surv * df;
        protection += (1.0 - recovery) * (surv_prev - surv) * df;
    }
    protection / premium
}

pub fn check() -> Result<(), String> {
    for p in [[0.02, 0.03], [0.05, 0.01]] {
        let (v, a, b) = cds_hazard_grad(p[0], p[1], 0.4, 5);
        crate::support::same_value("cds", v, cds_hazard(p[0], p[1], 0.4, 5))?;
        let want = crate::support::fd_grad(|q| cds_hazard(q[0], q[1], 0.4, 5), &p);
        crate::support::close("cds_hazard", &[a, b], &want, 1e-6)?;
    }
    Ok(())
}
