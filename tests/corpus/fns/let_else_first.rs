use autograd::differentiable;

/// Mean squared deviation from the opening price; nothing for an empty series.
#[differentiable]
pub fn let_else_first(prices: &[f64]) -> f64 {
    let Some(&open) = prices.first() else {
        return 0.0;
    };
    let mut s = 0.0;
    for p in prices {
        s += (p - open).powi(2);
    }
    s / prices.len() as f64
}

pub fn check() -> Result<(), String> {
    for x in [vec![100.0, 101.3, 99.7, 102.0], vec![1.0, 1.5, 0.5]] {
        let (v, g) = let_else_first_grad(&x);
        crate::support::same_value("let_else", v, let_else_first(&x))?;
        let want = crate::support::fd_grad(|q| let_else_first(q), &x);
        crate::support::close("let_else_first", &g, &want, 1e-6)?;
    }
    Ok(())
}
