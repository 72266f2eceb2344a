use autograd::differentiable;

/// Risk-parity objective for three assets: squared deviation of each
/// asset's share of portfolio variance from one third, the shares held in a
/// local array consumed by `into_iter()`.
#[differentiable]
pub fn risk_contrib_into_iter_array(w: [f64; 3], #[constant] cov: [[f64; 3]; 3]) -> f64 {
    let mut sigma_w = [0.0; 3];
    for i in 0..3 {
        for j in 0..3 {
            sigma_w[i] += cov[i][j] * w[j];
        }
    }
    let var: f64 = (0..3).map(|i| w[i] * sigma_w[i]).sum();
    let contribs = [w[0] * sigma_w[0] / var, w[1] * sigma_w[1] / var, w[2] * sigma_w[2] / var];
    contribs.into_iter().map(|c| (c - 1.0 / 3.0).powi(2)).sum()
}

pub fn check() -> Result<(), String> {
    let cov = [[0.04, 0.006, 0.002], [0.006, 0.09, 0.01], [0.002, 0.01, 0.0225]];
    for x in [[0.3, 0.3, 0.4], [0.5, 0.2, 0.3]] {
        let (v, g) = risk_contrib_into_iter_array_grad(x, cov);
        crate::support::same_value("rp", v, risk_contrib_into_iter_array(x, cov))?;
        let want = crate::support::fd_grad(|q| risk_contrib_into_iter_array([q[0], q[1], q[2]], cov), &x);
        crate::support::close("risk_contrib_into_iter_array", &g, &want, 1e-6)?;
    }
    Ok(())
}
