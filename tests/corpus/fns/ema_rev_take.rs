use autograd::differentiable;

/// Exponentially weighted mean of the most recent `window` prices, newest first.
#[differentiable]
pub fn ema_rev_take(prices: &[f64], decay: f64, #[constant] window: usize) -> f64 {
    let mut weight = 1.0;
    let mut num = 0.0;
    let mut den = 0.0;
    for p in prices.iter().rev().take(window) {
        num += weight * p;
        den += weight;
        weight *= decay;
    }
    num / den
}

pub fn check() -> Result<(), String> {
    for (x, d) in [(vec![100.0, 101.0, 99.5, 102.0, 103.0], 0.9), (vec![1.0, 1.2, 0.8, 1.1], 0.5)] {
        let (v, g, gd) = ema_rev_take_grad(&x, d, 3);
        crate::support::same_value("ema", v, ema_rev_take(&x, d, 3))?;
        let n = x.len();
        let mut p = x.clone();
        p.push(d);
        let want = crate::support::fd_grad(|q| ema_rev_take(&q[..n], q[n], 3), &p);
        let mut got = g.clone();
        got.push(gd);
        crate::support::close("ema_rev_take", &got, &want, 1e-6)?;
    }
    Ok(())
}
