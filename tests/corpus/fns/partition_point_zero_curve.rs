use autograd::differentiable;

/// Forward-starting 3-month deposit's discounted accrual off an
/// annually-compounded zero curve: the bracket by `partition_point`, linear
/// interpolation, the continuous rate by `ln_1p`, the accrual by `exp_m1`.
#[differentiable]
pub fn partition_point_zero_curve(zeros: &[f64], #[constant] pillars: &[f64], #[constant] t: f64) -> f64 {
    let i = pillars.partition_point(|&p| p <= t).clamp(1, pillars.len() - 1);
    let (t0, t1) = (pillars[i - 1], pillars[i]);
    let w = (t - t0) / (t1 - t0);
    let annual = zeros[i - 1] + w * (zeros[i] - zeros[i - 1]);
    let cont = annual.ln_1p();
    let df = (-cont * t).exp();
    let accrual = (cont * 0.25).exp_m1();
    df * accrual
}

pub fn check() -> Result<(), String> {
    let pillars = [0.5, 1.0, 2.0, 5.0, 10.0];
    for z in [vec![0.02, 0.022, 0.025, 0.03, 0.032], vec![0.05, 0.048, 0.045, 0.04, 0.039]] {
        for t in [0.7, 3.0, 9.5] {
            let (v, g) = partition_point_zero_curve_grad(&z, &pillars, t);
            crate::support::same_value("pp", v, partition_point_zero_curve(&z, &pillars, t))?;
            let want = crate::support::fd_grad(|q| partition_point_zero_curve(q, &pillars, t), &z);
            crate::support::close(&format!("partition_point_zero_curve t={t}"), &g, &want, 1e-6)?;
        }
    }
    Ok(())
}
