use autograd::differentiable;

/// Sum of log-weights skipping missing (NaN) observations with `continue`.
#[differentiable]
pub fn continue_skip_nan(w: &[f64], #[constant] obs: &[f64]) -> f64 {
    let mut total = 0.0;
    for i in 0..obs.len() {
        if obs[i].is_nan() {
            continue;
        }
        total += obs[i] * w[i].ln();
    }
    total
}

pub fn check() -> Result<(), String> {
    let obs = [1.0, f64::NAN, 2.0, 0.5];
    for w in [vec![0.3, 0.2, 0.4, 0.1], vec![1.0, 2.0, 3.0, 4.0]] {
        let (v, g) = continue_skip_nan_grad(&w, &obs);
        crate::support::same_value("skip", v, continue_skip_nan(&w, &obs))?;
        let want = crate::support::fd_grad(|q| continue_skip_nan(q, &obs), &w);
        crate::support::close("continue_skip_nan", &g, &want, 1e-6)?;
    }
    Ok(())
}
