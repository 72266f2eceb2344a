use autograd::differentiable;

/// Unilateral CVA of a netting set: expected positive exposure on each date
/// from simulated mark-to-market scenarios (per unit of position), a flat
/// hazard rate for the counterparty and flat discounting.
#[differentiable]
pub fn cva_expected_exposure(
    hazard: f64,
    rate: f64,
    position: f64,
    #[constant] times: &[f64],
    #[constant] mtm: &[Vec<f64>],
    #[constant] recovery: f64,
) -> f64 {
    let lgd = 1.0 - recovery;
    let mut cva = 0.0;
    let mut prev_t = 0.0;
    for (t, scenarios) in times.iter().zip(mtm) {
        let ee = scenarios.iter().map(|&v| (position * v).max(0.0)).sum::<f64>() / scenarios.len() as f64;
        let default_prob = (-hazard * prev_t).exp() - (-hazard * t).exp();
        cva += lgd * ee * default_prob * (-rate * t).exp();
        prev_t = *t;
    }
    cva
}

pub fn check() -> Result<(), String> {
    let times = [0.5, 1.0, 1.5, 2.0];
    let mtm = vec![
        vec![1.2, -0.4, 0.7, -1.1, 2.0],
        vec![1.8, -0.9, 0.3, 0.6, -2.2],
        vec![-0.5, 2.4, 1.1, -1.7, 0.9],
        vec![0.4, -0.3, 3.0, -2.5, 1.6],
    ];
    for x in [[0.02, 0.03, 1e6], [0.05, 0.01, 2.5e5]] {
        let (v, dh, dr, dp) = cva_expected_exposure_grad(x[0], x[1], x[2], &times, &mtm, 0.4);
        crate::support::same_value("cva", v, cva_expected_exposure(x[0], x[1], x[2], &times, &mtm, 0.4))?;
        let want = crate::support::fd_grad(|q| cva_expected_exposure(q[0], q[1], q[2], &times, &mtm, 0.4), &x);
        crate::support::close("cva_expected_exposure", &[dh, dr, dp], &want, 1e-6)?;
    }
    Ok(())
}
