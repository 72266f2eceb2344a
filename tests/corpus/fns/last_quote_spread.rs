use autograd::differentiable;

/// A quote's spread against the last traded price, weighted over the book;
/// with no trade yet the spread is measured against the mid price.
#[differentiable]
pub fn last_quote_spread(trades: &[f64], bid: f64, ask: f64) -> f64 {
    let mid = 0.5 * (bid + ask);
    let reference = if let Some(&last) = trades.last() { 0.8 * last + 0.2 * mid } else { mid };
    let mut weight = 0.0;
    for (i, t) in trades.iter().enumerate() {
        weight += (t - reference).abs() / (i as f64 + 1.0);
    }
    (ask - bid) / reference + 0.01 * weight
}

pub fn check() -> Result<(), String> {
    let p = [100.2, 100.6, 99.9, 100.4, 99.8, 100.3];
    let f = |q: &[f64]| last_quote_spread(&q[..4], q[4], q[5]);
    let (v, dt, db, da) = last_quote_spread_grad(&p[..4], p[4], p[5]);
    crate::support::same_value("spread", v, f(&p))?;
    let got = [dt[0], dt[1], dt[2], dt[3], db, da];
    crate::support::close("last_quote_spread", &got, &crate::support::fd_grad(f, &p), 1e-5)?;
    let q = [99.8, 100.3];
    let g = |q: &[f64]| last_quote_spread(&[], q[0], q[1]);
    let (v, dt, db, da) = last_quote_spread_grad(&[], q[0], q[1]);
    crate::support::same_value("spread without trades", v, g(&q))?;
    if !dt.is_empty() {
        return Err("spread without trades: adjoint of the trades not empty".into());
    }
    crate::support::close("last_quote_spread without trades", &[db, da], &crate::support::fd_grad(g, &q), 1e-5)
}
