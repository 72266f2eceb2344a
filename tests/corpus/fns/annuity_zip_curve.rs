use autograd::differentiable;

/// Par swap rate from a zero curve given at the payment dates.
#[differentiable]
pub fn annuity_zip_curve(zeros: &[f64], #[constant] times: &[f64]) -> f64 {
    let dfs: Vec<f64> = zeros.iter().zip(times).map(|(z, t)| (-z * t).exp()).collect();
    let mut prev = 0.0;
    let mut annuity = 0.0;
    for (df, &t) in dfs.iter().zip(times.iter()) {
        annuity += (t - prev) * df;
        prev = t;
    }
    (1.0 - dfs[dfs.len() - 1]) / annuity
}

pub fn check() -> Result<(), String> {
    let times = [1.0, 2.0, 3.0, 4.0, 5.0];
    for z in [vec![0.02, 0.022, 0.025, 0.027, 0.03], vec![0.05, 0.045, 0.04, 0.038, 0.037]] {
        let (v, g) = annuity_zip_curve_grad(&z, &times);
        crate::support::same_value("par", v, annuity_zip_curve(&z, &times))?;
        let want = crate::support::fd_grad(|q| annuity_zip_curve(q, &times), &z);
        crate::support::close("annuity_zip_curve", &g, &want, 1e-6)?;
    }
    Ok(())
}
