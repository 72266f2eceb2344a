use autograd::differentiable;

/// Heston call by Monte Carlo with full-truncation Euler on log-spot; the
/// correlated normals come in fixed as `[z_s, z_v]` pairs, path after path.
#[differentiable]
pub fn heston_mc_constant_normals(
    spot: f64,
    v0: f64,
    kappa: f64,
    theta: f64,
    xi: f64,
    rho: f64,
    #[constant] normals: &[[f64; 2]],
    #[constant] paths: usize,
    #[constant] strike: f64,
    #[constant] expiry: f64,
) -> f64 {
    let steps = normals.len() / paths;
    let dt = expiry / steps as f64;
    let sq_dt = dt.sqrt();
    let rho_bar = (1.0 - rho * rho).sqrt();
    let mut payoff_sum = 0.0;
    for p in 0..paths {
        let mut log_s = spot.ln();
        let mut v = v0;
        for k in 0..steps {
            let [z1, z2] = normals[p * steps + k];
            let vp = v.max(0.0);
            let zv = rho * z1 + rho_bar * z2;
            log_s += -0.5 * vp * dt + vp.sqrt() * sq_dt * z1;
            v += kappa * (theta - vp) * dt + xi * vp.sqrt() * sq_dt * zv;
        }
        payoff_sum += (log_s.exp() - strike).max(0.0);
    }
    payoff_sum / paths as f64
}

fn normals(n: usize) -> Vec<[f64; 2]> {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut uniform = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        ((state >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    };
    (0..n)
        .map(|_| {
            let (u1, u2) = (uniform(), uniform());
            let r = (-2.0 * u1.ln()).sqrt();
            let a = 2.0 * std::f64::consts::PI * u2;
            [r * a.cos(), r * a.sin()]
        })
        .collect()
}

pub fn check() -> Result<(), String> {
    let paths = 40;
    let z = normals(paths * 12);
    for x in [[100.0, 0.04, 1.5, 0.04, 0.3, -0.7], [95.0, 0.09, 2.0, 0.06, 0.4, -0.3]] {
        let (v, d0, d1, d2, d3, d4, d5) = heston_mc_constant_normals_grad(x[0], x[1], x[2], x[3], x[4], x[5], &z, paths, 100.0, 1.0);
        crate::support::same_value("heston", v, heston_mc_constant_normals(x[0], x[1], x[2], x[3], x[4], x[5], &z, paths, 100.0, 1.0))?;
        let want = crate::support::fd_grad(|q| heston_mc_constant_normals(q[0], q[1], q[2], q[3], q[4], q[5], &z, paths, 100.0, 1.0), &x);
        crate::support::close("heston_mc_constant_normals", &[d0, d1, d2, d3, d4, d5], &want, 1e-5)?;
    }
    Ok(())
}
