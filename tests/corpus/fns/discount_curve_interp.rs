use autograd::differentiable;

/// Log-linear interpolation of discount factors on a pillar grid.
#[differentiable]
pub fn discount_curve_interp(t: f64, #[constant] pillars: &[f64], log_dfs: &[f64]) -> f64 {
    let n = pillars.len();
    if t <= pillars[0] {
        return (log_dfs[0] * t / pillars[0]).exp();
    }
    for i in 1..n {
        if t <= pillars[i] {
            let w = (t - pillars[i - 1]) / (pillars[i] - pillars[i - 1]);
            return ((1.0 - w) * log_dfs[i - 1] + w * log_dfs[i]).exp();
        }
    }
    (log_dfs[n - 1] * t / pillars[n - 1]).exp()
}

pub fn check() -> Result<(), String> {
    let pillars = [1.0, 2.0, 5.0, 10.0];
    let lds = [-0.02, -0.045, -0.12, -0.26];
    for t in [0.5, 1.7, 3.3, 12.0] {
        let (v, dt, dl) = discount_curve_interp_grad(t, &pillars, &lds);
        crate::support::same_value("df", v, discount_curve_interp(t, &pillars, &lds))?;
        let mut p = vec![t];
        p.extend(lds);
        let want = crate::support::fd_grad(|q| discount_curve_interp(q[0], &pillars, &q[1..]), &p);
        let mut got = vec![dt];
        got.extend(dl);
        crate::support::close("discount_curve_interp", &got, &want, 1e-6)?;
    }
    Ok(())
}
