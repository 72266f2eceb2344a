use autograd::differentiable;

#[differentiable]
pub fn mse_loss(pred: &[f64], #[constant] target: &[f64]) -> f64 {
    pred.iter().zip(target).map(|(p, t)| (p - t).powi(2)).sum::<f64>() / pred.len() as f64
}

pub fn check() -> Result<(), String> {
    let t = [1.0, 2.0, 3.0, 4.0];
    for x in [vec![1.5, 1.0, 3.3, 5.0], vec![-1.0, 0.0, 2.0, 4.1]] {
        let (v, g) = mse_loss_grad(&x, &t);
        crate::support::same_value("mse", v, mse_loss(&x, &t))?;
        let want = crate::support::fd_grad(|q| mse_loss(q, &t), &x);
        crate::support::close("mse_loss", &g, &want, 1e-6)?;
    }
    Ok(())
}
