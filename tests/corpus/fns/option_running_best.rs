use autograd::differentiable;

/// Best smoothed score seen so far, the running best held in an `Option`.
#[differentiable]
pub fn option_running_best(scores: &[f64], temp: f64) -> f64 {
    let mut best: Option<f64> = None;
    for &s in scores {
        let smooth = (s / temp).tanh();
        best = match best {
            None => Some(smooth),
            Some(b) if smooth > b => Some(smooth),
            Some(b) => Some(b),
        };
    }
    best.unwrap_or(0.0) * temp
}

pub fn check() -> Result<(), String> {
    for (x, t) in [(vec![0.2, 0.9, 0.4], 1.5), (vec![-0.3, -0.1, -0.7, 0.05], 0.8)] {
        let (v, g, gt) = option_running_best_grad(&x, t);
        crate::support::same_value("best", v, option_running_best(&x, t))?;
        let n = x.len();
        let mut p = x.clone();
        p.push(t);
        let want = crate::support::fd_grad(|q| option_running_best(&q[..n], q[n]), &p);
        let mut got = g.clone();
        got.push(gt);
        crate::support::close("option_running_best", &got, &want, 1e-6)?;
    }
    Ok(())
}
