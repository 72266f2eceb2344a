use autograd::differentiable;

/// Bootstraps continuously compounded zero rates from annual par swap rates:
/// each new discount factor solves s_n (A_{n-1} + D_n) = 1 - D_n.
#[differentiable]
pub fn bootstrap_par_swap_zeros(par: &[f64]) -> Vec<f64> {
    let mut zeros = Vec::with_capacity(par.len());
    let mut annuity = 0.0;
    for (i, &s) in par.iter().enumerate() {
        let df = (1.0 - s * annuity) / (1.0 + s);
        annuity += df;
        zeros.push(-df.ln() / (i + 1) as f64);
    }
    zeros
}

pub fn check() -> Result<(), String> {
    for par in [vec![0.02, 0.025, 0.028, 0.03, 0.031], vec![0.05, 0.045, 0.042, 0.04]] {
        let (value, jm) = bootstrap_par_swap_zeros_jacobian(&par);
        let plain = bootstrap_par_swap_zeros(&par);
        let jac = crate::support::fd_jacobian(|q| bootstrap_par_swap_zeros(q), &par);
        for k in 0..par.len() {
            crate::support::same_value("bootstrap", value[k], plain[k])?;
            let row: Vec<f64> = (0..par.len()).map(|j| jm[(k, j)]).collect();
            crate::support::close(&format!("bootstrap_par_swap_zeros row {k}"), &row, &jac[k], 1e-6)?;
        }
    }
    Ok(())
}
