use autograd::differentiable;

#[differentiable]
pub fn product_iter(x: &[f64]) -> f64 {
    x.iter().map(|v| v.exp()).product::<f64>().ln()
}

pub fn check() -> Result<(), String> {
    for x in [vec![0.5, 1.3, -0.7, 2.0], vec![1.1, 0.2, 0.9, -0.4]] {
        let (v, g) = product_iter_grad(&x);
        crate::support::same_value("product_iter", v, product_iter(&x))?;
        let want = crate::support::fd_grad(|q| product_iter(q), &x);
        crate::support::close("product_iter", &g, &want, 1e-6)?;
    }
    Ok(())
}
