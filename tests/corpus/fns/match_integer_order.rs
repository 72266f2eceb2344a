use autograd::differentiable;

/// Taylor approximation of exp of a chosen order, selected by `match`.
#[differentiable]
pub fn match_integer_order(x: f64, order: u32) -> f64 {
    match order {
        0 => 1.0,
        1 => 1.0 + x,
        2 => 1.0 + x + 0.5 * x * x,
        _ => 1.0 + x + 0.5 * x * x + x * x * x / 6.0,
    }
}

pub fn check() -> Result<(), String> {
    for order in [1, 2, 5] {
        for x in [0.3, -1.2] {
            let (v, d) = match_integer_order_grad(x, order);
            crate::support::same_value("taylor", v, match_integer_order(x, order))?;
            let want = crate::support::fd_grad(|q| match_integer_order(q[0], order), &[x]);
            crate::support::close("match_integer_order", &[d], &want, 1e-6)?;
        }
    }
    Ok(())
}
