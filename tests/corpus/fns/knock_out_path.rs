use autograd::differentiable;

/// Average of a simulated price path until it crosses the barrier, where
/// the option knocks out and pays the rebate instead.
#[differentiable]
pub fn knock_out_path(spot: f64, vol: f64, barrier: f64, rebate: f64, #[constant] normals: &[f64]) -> f64 {
    let dt = 1.0 / 52.0;
    let mut s = spot;
    let mut running = 0.0;
    for z in normals {
        s *= (-0.5 * vol * vol * dt + vol * dt.sqrt() * z).exp();
        running += if s < barrier { s } else { return rebate * s / barrier };
    }
    running / normals.len() as f64
}

pub fn check() -> Result<(), String> {
    let normals = [0.3, -1.2, 0.8, 1.9, 1.4, 2.1, -0.5];
    let f = |q: &[f64]| knock_out_path(q[0], q[1], q[2], q[3], &normals);
    for p in [[100.0, 0.3, 120.0, 2.0], [100.0, 0.3, 104.0, 2.0], [100.0, 0.3, 200.0, 2.0]] {
        let (v, ds, dv, db, dr) = knock_out_path_grad(p[0], p[1], p[2], p[3], &normals);
        crate::support::same_value("knock out", v, f(&p))?;
        crate::support::close("knock_out_path", &[ds, dv, db, dr], &crate::support::fd_grad(f, &p), 1e-5)?;
    }
    Ok(())
}
