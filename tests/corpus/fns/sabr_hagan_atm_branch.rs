use autograd::differentiable;

/// Hagan's SABR lognormal vol with beta fixed, including the at-the-money branch.
#[differentiable]
pub fn sabr_hagan_atm_branch(f: f64, k: f64, t: f64, alpha: f64, rho: f64, nu: f64, #[constant] beta: f64) -> f64 {
    let one_b = 1.0 - beta;
    let fk = f * k;
    let fk_pow = fk.powf(0.5 * one_b);
    let log_fk = (f / k).ln();
    let correction = 1.0
        + (one_b.powi(2) / 24.0 * alpha * alpha / fk.powf(one_b)
            + 0.25 * rho * beta * nu * alpha / fk_pow
            + (2.0 - 3.0 * rho * rho) / 24.0 * nu * nu)
            * t;
    if (f - k).abs() < 1e-10 {
        return alpha / f.powf(one_b) * correction;
    }
    let z = nu / alpha * fk_pow * log_fk;
    let x_z = (((1.0 - 2.0 * rho * z + z * z).sqrt() + z - rho) / (1.0 - rho)).ln();
    let denom = fk_pow * (1.0 + one_b.powi(2) / 24.0 * log_fk.powi(2) + one_b.powi(4) / 1920.0 * log_fk.powi(4));
    alpha / denom * (z / x_z) * correction
}

pub fn check() -> Result<(), String> {
    let f = |a: f64, b: f64, c: f64, d: f64, e: f64, g: f64| sabr_hagan_atm_branch(a, b, c, d, e, g, 0.5);
    let fg = |a: f64, b: f64, c: f64, d: f64, e: f64, g: f64| sabr_hagan_atm_branch_grad(a, b, c, d, e, g, 0.5);
    for p in [[0.03, 0.035, 2.0, 0.04, -0.3, 0.5], [0.05, 0.04, 1.0, 0.06, 0.2, 0.8]] {
        let (v, a, b, c, d, e, g) = fg(p[0], p[1], p[2], p[3], p[4], p[5]);
        crate::support::same_value("sabr", v, f(p[0], p[1], p[2], p[3], p[4], p[5]))?;
        let want = crate::support::fd_grad(|q| f(q[0], q[1], q[2], q[3], q[4], q[5]), &p);
        crate::support::close("sabr_hagan_atm_branch", &[a, b, c, d, e, g], &want, 1e-6)?;
    }
    Ok(())
}
