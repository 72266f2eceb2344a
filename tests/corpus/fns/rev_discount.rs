use autograd::differentiable;

/// Backward induction of a value through a reversed iterator.
#[differentiable]
pub fn rev_discount(x: &[f64]) -> f64 {
    let mut value = 0.0;
    for c in x.iter().rev() {
        value = 0.95 * value + c;
    }
    value
}

pub fn check() -> Result<(), String> {
    for x in [vec![0.5, 1.3, -0.7, 2.0], vec![1.1, 0.2, 0.9, -0.4]] {
        let (v, g) = rev_discount_grad(&x);
        crate::support::same_value("rev_discount", v, rev_discount(&x))?;
        let want = crate::support::fd_grad(|q| rev_discount(q), &x);
        crate::support::close("rev_discount", &g, &want, 1e-6)?;
    }
    Ok(())
}
