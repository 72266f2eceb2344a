use autograd::differentiable;

/// Standard normal CDF, Zelen & Severo (Abramowitz–Stegun 26.2.17).
#[differentiable]
pub fn ncdf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.2316419 * x.abs());
    let poly = t * (0.319381530 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
    let tail = (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt() * poly;
    if x >= 0.0 { 1.0 - tail } else { tail }
}

/// An interest-rate cap priced caplet by caplet with Black-76 on the simple
/// forwards implied by a strip of discount factors (`dfs[i]` to `times[i]`,
/// the first one being the first reset), flat cap vol.
#[differentiable]
pub fn cap_black_forward_curve(
    dfs: &[f64],
    vol: f64,
    #[constant] times: &[f64],
    #[constant] strike: f64,
    #[constant] notional: f64,
) -> f64 {
    let mut pv = 0.0;
    for (i, period) in times.windows(2).enumerate() {
        let (reset, pay) = (period[0], period[1]);
        let accrual = pay - reset;
        let fwd = (dfs[i] / dfs[i + 1] - 1.0) / accrual;
        let std_dev = vol * reset.sqrt();
        let d1 = ((fwd / strike).ln() + 0.5 * std_dev * std_dev) / std_dev;
        let d2 = d1 - std_dev;
        pv += notional * accrual * dfs[i + 1] * (fwd * ncdf(d1) - strike * ncdf(d2));
    }
    pv
}

pub fn check() -> Result<(), String> {
    let times = [0.5, 1.0, 1.5, 2.0, 2.5];
    for (dfs, vol) in [(vec![0.99, 0.975, 0.958, 0.94, 0.921], 0.2), (vec![0.985, 0.972, 0.951, 0.935, 0.912], 0.35)] {
        let (v, g_dfs, g_vol) = cap_black_forward_curve_grad(&dfs, vol, &times, 0.03, 1e6);
        crate::support::same_value("cap", v, cap_black_forward_curve(&dfs, vol, &times, 0.03, 1e6))?;
        let n = dfs.len();
        let mut p = dfs.clone();
        p.push(vol);
        let want = crate::support::fd_grad(|q| cap_black_forward_curve(&q[..n], q[n], &times, 0.03, 1e6), &p);
        let mut got = g_dfs.clone();
        got.push(g_vol);
        crate::support::close("cap_black_forward_curve", &got, &want, 1e-6)?;
    }
    Ok(())
}
