use autograd::differentiable;

/// Total variation of a path, the previous value carried as an `Option`.
#[differentiable]
pub fn option_prev_state(x: &[f64], eps: f64) -> f64 {
    let mut prev: Option<f64> = None;
    let mut tv = 0.0;
    for &v in x {
        if let Some(p) = prev {
            tv += ((v - p).powi(2) + eps * eps).sqrt();
        }
        prev = Some(v);
    }
    tv
}

pub fn check() -> Result<(), String> {
    for (x, e) in [(vec![0.5, 1.3, -0.7, 2.0], 0.1), (vec![1.1, 0.2, 0.9], 0.01)] {
        let (v, g, ge) = option_prev_state_grad(&x, e);
        crate::support::same_value("tv", v, option_prev_state(&x, e))?;
        let n = x.len();
        let mut p = x.clone();
        p.push(e);
        let want = crate::support::fd_grad(|q| option_prev_state(&q[..n], q[n]), &p);
        let mut got = g.clone();
        got.push(ge);
        crate::support::close("option_prev_state", &got, &want, 1e-6)?;
    }
    Ok(())
}
