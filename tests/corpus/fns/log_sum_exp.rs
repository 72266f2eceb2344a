use autograd::differentiable;

#[differentiable]
pub fn log_sum_exp(x: &[f64]) -> f64 {
    let m = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    m + x.iter().map(|v| (v - m).exp()).sum::<f64>().ln()
}

pub fn check() -> Result<(), String> {
    for x in [vec![0.5, -1.0, 2.0], vec![10.0, 10.5, 9.0, -3.0]] {
        let (v, g) = log_sum_exp_grad(&x);
        crate::support::same_value("lse", v, log_sum_exp(&x))?;
        let want = crate::support::fd_grad(log_sum_exp, &x);
        crate::support::close("log_sum_exp", &g, &want, 1e-6)?;
    }
    Ok(())
}
