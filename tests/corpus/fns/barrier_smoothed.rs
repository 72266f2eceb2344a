use autograd::differentiable;

/// Up-and-out call payoff along a path, knock-out smoothed by a sigmoid.
#[differentiable]
pub fn barrier_smoothed(path: &[f64], strike: f64, barrier: f64, #[constant] width: f64) -> f64 {
    let mut alive = 1.0;
    for &s in path {
        alive *= 1.0 / (1.0 + ((s - barrier) / width).exp());
    }
    let last = path[path.len() - 1];
    alive * (last - strike).max(0.0)
}

pub fn check() -> Result<(), String> {
    for (path, k, b) in [(vec![100.0, 103.0, 108.0, 111.0], 100.0, 120.0), (vec![95.0, 99.0, 104.0], 98.0, 106.0)] {
        let (v, dp, dk, db) = barrier_smoothed_grad(&path, k, b, 2.0);
        crate::support::same_value("barrier", v, barrier_smoothed(&path, k, b, 2.0))?;
        let mut p = path.clone();
        p.push(k);
        p.push(b);
        let n = path.len();
        let want = crate::support::fd_grad(|q| barrier_smoothed(&q[..n], q[n], q[n + 1], 2.0), &p);
        let mut got = dp;
        got.push(dk);
        got.push(db);
        crate::support::close("barrier_smoothed", &got, &want, 1e-6)?;
    }
    Ok(())
}
