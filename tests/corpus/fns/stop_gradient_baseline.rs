use autograd::differentiable;

/// REINFORCE-style loss with a baseline held out of the gradient.
#[differentiable]
pub fn stop_gradient_baseline(x: &[f64]) -> f64 {
    let mut mean = 0.0;
    for i in 0..x.len() {
        mean += x[i];
    }
    let baseline = autograd::stop_gradient(mean / x.len() as f64);
    let mut s = 0.0;
    for i in 0..x.len() {
        s += (x[i] - baseline) * x[i];
    }
    s
}

/// Expected: d/dx_i = 2 x_i − baseline (the baseline is held constant).
pub fn check() -> Result<(), String> {
    for x in [vec![0.5, 1.3, -0.7, 2.0], vec![1.1, 0.2, 0.9, -0.4]] {
        let (v, g) = stop_gradient_baseline_grad(&x);
        crate::support::same_value("sg", v, stop_gradient_baseline(&x))?;
        let b = x.iter().sum::<f64>() / x.len() as f64;
        let want: Vec<f64> = x.iter().map(|xi| 2.0 * xi - b).collect();
        crate::support::close("stop_gradient_baseline", &g, &want, 1e-6)?;
    }
    Ok(())
}
