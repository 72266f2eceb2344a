use autograd::differentiable;

/// Arithmetic-average Asian call on a path, discounted.
#[differentiable]
pub fn asian_payoff(path: &[f64], strike: f64, rate: f64, maturity: f64) -> f64 {
    let avg = path.iter().sum::<f64>() / path.len() as f64;
    (-rate * maturity).exp() * (avg - strike).max(0.0)
}

pub fn check() -> Result<(), String> {
    let path = [100.0, 102.0, 99.5, 104.0, 107.0];
    for (k, r, t) in [(95.0, 0.02, 1.0), (101.0, 0.05, 0.5)] {
        let (v, dp, dk, dr, dt) = asian_payoff_grad(&path, k, r, t);
        crate::support::same_value("asian", v, asian_payoff(&path, k, r, t))?;
        let mut p = path.to_vec();
        p.extend([k, r, t]);
        let want = crate::support::fd_grad(|q| asian_payoff(&q[..5], q[5], q[6], q[7]), &p);
        let mut got = dp;
        got.extend([dk, dr, dt]);
        crate::support::close("asian_payoff", &got, &want, 1e-6)?;
    }
    Ok(())
}
