use autograd::differentiable;

#[differentiable]
pub fn enumerate_weighted(x: &[f64]) -> f64 {
    let mut total = 0.0;
    for (i, v) in x.iter().enumerate() {
        total += (i as f64 + 1.0) * v.sin();
    }
    total
}

pub fn check() -> Result<(), String> {
    for x in [vec![0.5, 1.3, -0.7, 2.0], vec![1.1, 0.2, 0.9, -0.4]] {
        let (v, g) = enumerate_weighted_grad(&x);
        crate::support::same_value("enumerate_weighted", v, enumerate_weighted(&x))?;
        let want = crate::support::fd_grad(|q| enumerate_weighted(q), &x);
        crate::support::close("enumerate_weighted", &g, &want, 1e-6)?;
    }
    Ok(())
}
