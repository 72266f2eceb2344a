use autograd::differentiable;

static TENORS: [f64; 5] = [0.25, 1.0, 2.0, 5.0, 10.0];

/// Piecewise-linear vol surface slice read from a static grid of knots.
#[differentiable]
pub fn static_table_interp(t: f64, vols: &[f64]) -> f64 {
    let mut i = 0;
    while i + 2 < TENORS.len() && t > TENORS[i + 1] {
        i += 1;
    }
    let w = (t - TENORS[i]) / (TENORS[i + 1] - TENORS[i]);
    vols[i] * (1.0 - w) + vols[i + 1] * w
}

pub fn check() -> Result<(), String> {
    let vols = [0.25, 0.22, 0.2, 0.19, 0.185];
    for t in [0.5, 3.0, 7.5] {
        let (v, dt, dv) = static_table_interp_grad(t, &vols);
        crate::support::same_value("interp", v, static_table_interp(t, &vols))?;
        let mut p = vec![t];
        p.extend(vols);
        let want = crate::support::fd_grad(|q| static_table_interp(q[0], &q[1..]), &p);
        let mut got = vec![dt];
        got.extend(dv);
        crate::support::close("static_table_interp", &got, &want, 1e-6)?;
    }
    Ok(())
}
