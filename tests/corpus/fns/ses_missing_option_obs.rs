use autograd::differentiable;

/// Simple exponential smoothing over a series with gaps: a missing day
/// carries the level forward, and only observed days add a squared
/// one-step-ahead error. Returns the mean squared error.
#[differentiable]
pub fn ses_missing_option_obs(alpha: f64, level0: f64, #[constant] obs: &[Option<f64>]) -> f64 {
    let mut level = level0;
    let mut sse = 0.0;
    let mut n = 0usize;
    for &y in obs {
        let Some(v) = y else { continue };
        let err = v - level;
        sse += err * err;
        level += alpha * err;
        n += 1;
    }
    sse / n as f64
}

pub fn check() -> Result<(), String> {
    let obs = [Some(10.2), None, Some(10.9), Some(10.4), None, None, Some(11.8), Some(11.1), Some(12.0)];
    for x in [[0.3, 10.0], [0.7, 9.5]] {
        let (v, da, dl) = ses_missing_option_obs_grad(x[0], x[1], &obs);
        crate::support::same_value("ses", v, ses_missing_option_obs(x[0], x[1], &obs))?;
        let want = crate::support::fd_grad(|q| ses_missing_option_obs(q[0], q[1], &obs), &x);
        crate::support::close("ses_missing_option_obs", &[da, dl], &want, 1e-6)?;
    }
    Ok(())
}
