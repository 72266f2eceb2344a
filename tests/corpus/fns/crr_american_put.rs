use autograd::differentiable;

/// American put on a Cox–Ross–Rubinstein binomial tree: terminal payoffs
/// collected into a Vec, then backward induction with early exercise.
#[differentiable]
pub fn crr_american_put(s0: f64, k: f64, r: f64, sigma: f64, #[constant] t: f64, #[constant] steps: usize) -> f64 {
    let dt = t / steps as f64;
    let u = (sigma * dt.sqrt()).exp();
    let d = 1.0 / u;
    let disc = (-r * dt).exp();
    let p = ((r * dt).exp() - d) / (u - d);
    let mut values: Vec<f64> = (0..=steps)
        .map(|j| (k - s0 * u.powi(j as i32) * d.powi((steps - j) as i32)).max(0.0))
        .collect();
    for n in (0..steps).rev() {
        for j in 0..=n {
            let cont = disc * (p * values[j + 1] + (1.0 - p) * values[j]);
            let exercise = k - s0 * u.powi(j as i32) * d.powi((n - j) as i32);
            values[j] = cont.max(exercise);
        }
    }
    values[0]
}

pub fn check() -> Result<(), String> {
    for x in [[100.0, 100.0, 0.05, 0.25], [92.0, 100.0, 0.03, 0.3]] {
        let (v, ds, dk, dr, dsig) = crr_american_put_grad(x[0], x[1], x[2], x[3], 1.0, 25);
        crate::support::same_value("crr", v, crr_american_put(x[0], x[1], x[2], x[3], 1.0, 25))?;
        let want = crate::support::fd_grad(|q| crr_american_put(q[0], q[1], q[2], q[3], 1.0, 25), &x);
        crate::support::close("crr_american_put", &[ds, dk, dr, dsig], &want, 1e-6)?;
    }
    Ok(())
}
