use autograd::differentiable;

/// Product of (1 + r_i): compounded growth with fold.
#[differentiable]
pub fn fold_product(x: &[f64]) -> f64 {
    x.iter().fold(1.0, |acc, r| acc * (1.0 + 0.1 * r))
}

pub fn check() -> Result<(), String> {
    for x in [vec![0.5, 1.3, -0.7, 2.0], vec![1.1, 0.2, 0.9, -0.4]] {
        let (v, g) = fold_product_grad(&x);
        crate::support::same_value("fold_product", v, fold_product(&x))?;
        let want = crate::support::fd_grad(|q| fold_product(q), &x);
        crate::support::close("fold_product", &g, &want, 1e-6)?;
    }
    Ok(())
}
