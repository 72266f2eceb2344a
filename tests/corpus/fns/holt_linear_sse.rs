use autograd::differentiable;

/// Holt's linear-trend exponential smoothing: sum of squared one-step-ahead
/// forecast errors, level and trend started from the first two points.
#[differentiable]
pub fn holt_linear_sse(alpha: f64, beta: f64, #[constant] y: &[f64]) -> f64 {
    let (mut level, mut trend) = (y[0], y[1] - y[0]);
    let mut sse = 0.0;
    for &obs in &y[1..] {
        let forecast = level + trend;
        let err = obs - forecast;
        sse += err * err;
        let new_level = alpha * obs + (1.0 - alpha) * forecast;
        trend = beta * (new_level - level) + (1.0 - beta) * trend;
        level = new_level;
    }
    sse
}

pub fn check() -> Result<(), String> {
    let y = [10.0, 10.8, 11.1, 12.4, 12.9, 13.2, 14.8, 15.1, 15.9, 17.2];
    for x in [[0.5, 0.2], [0.8, 0.05]] {
        let (v, da, db) = holt_linear_sse_grad(x[0], x[1], &y);
        crate::support::same_value("holt", v, holt_linear_sse(x[0], x[1], &y))?;
        let want = crate::support::fd_grad(|q| holt_linear_sse(q[0], q[1], &y), &x);
        crate::support::close("holt_linear_sse", &[da, db], &want, 1e-6)?;
    }
    Ok(())
}
