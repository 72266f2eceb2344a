use autograd::differentiable;

#[differentiable]
pub fn huber_loss(residuals: &[f64], delta: f64) -> f64 {
    let mut total = 0.0;
    for r in residuals {
        let a = r.abs();
        total += if a <= delta { 0.5 * r * r } else { delta * (a - 0.5 * delta) };
    }
    total
}

pub fn check() -> Result<(), String> {
    for (x, d) in [(vec![0.3, -2.0, 1.4, -0.1], 1.0), (vec![5.0, -0.2, 0.7], 0.5)] {
        let (v, g, dd) = huber_loss_grad(&x, d);
        crate::support::same_value("huber", v, huber_loss(&x, d))?;
        let mut p = x.clone();
        p.push(d);
        let n = x.len();
        let want = crate::support::fd_grad(|q| huber_loss(&q[..n], q[n]), &p);
        let mut got = g;
        got.push(dd);
        crate::support::close("huber_loss", &got, &want, 1e-6)?;
    }
    Ok(())
}
