use autograd::differentiable;

/// Sum of squared one-step-ahead errors of an exponential smoother, walking
/// the prices with `while let` over an iterator.
#[differentiable]
pub fn ema_while_let(alpha: f64, #[constant] prices: &[f64]) -> f64 {
    let mut it = prices.iter();
    let mut level = match it.next() {
        Some(&p) => p,
        None => return 0.0,
    };
    let mut sse = 0.0;
    while let Some(&p) = it.next() {
        let err = p - level;
        sse += err * err;
        level += alpha * err;
    }
    sse
}

pub fn check() -> Result<(), String> {
    let prices = [100.0, 101.5, 100.8, 102.2, 103.0, 102.1, 104.4, 105.0];
    for a in [0.2, 0.65] {
        let (v, d) = ema_while_let_grad(a, &prices);
        crate::support::same_value("ema", v, ema_while_let(a, &prices))?;
        let want = crate::support::fd_grad(|q| ema_while_let(q[0], &prices), &[a]);
        crate::support::close("ema_while_let", &[d], &want, 1e-6)?;
    }
    Ok(())
}
