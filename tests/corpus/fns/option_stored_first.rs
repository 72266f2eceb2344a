use autograd::differentiable;

/// Relative move from the first element, with the Option held in a variable.
#[differentiable]
pub fn option_stored_first(x: &[f64], scale: f64) -> f64 {
    let head = x.first();
    let base = if let Some(v) = head { *v } else { 1.0 };
    x.iter().map(|v| (v / base - 1.0) * scale).sum()
}

pub fn check() -> Result<(), String> {
    for (x, s) in [(vec![2.0, 2.5, 1.5], 0.7), (vec![1.0, 0.3, 0.9, 1.2], 2.0)] {
        let (v, g, gs) = option_stored_first_grad(&x, s);
        crate::support::same_value("opt", v, option_stored_first(&x, s))?;
        let n = x.len();
        let mut p = x.clone();
        p.push(s);
        let want = crate::support::fd_grad(|q| option_stored_first(&q[..n], q[n]), &p);
        let mut got = g.clone();
        got.push(gs);
        crate::support::close("option_stored_first", &got, &want, 1e-6)?;
    }
    Ok(())
}
