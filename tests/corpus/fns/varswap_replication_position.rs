use autograd::differentiable;
use std::cmp::Ordering;

/// A&S 26.2.17 normal CDF.
#[differentiable]
pub fn ncdf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.2316419 * x.abs());
    let poly = t * (0.319381530 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
    let tail = (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt() * poly;
    if x >= 0.0 { 1.0 - tail } else { tail }
}

/// Undiscounted Black-76 call or put.
#[differentiable]
pub fn black(fwd: f64, k: f64, vol: f64, t: f64, call: bool) -> f64 {
    let sd = vol * t.sqrt();
    let d1 = ((fwd / k).ln() + 0.5 * sd * sd) / sd;
    let d2 = d1 - sd;
    if call { fwd * ncdf(d1) - k * ncdf(d2) } else { k * ncdf(-d2) - fwd * ncdf(-d1) }
}

/// Fair variance-swap strike by static replication on a discrete strike
/// strip (the VIX construction): out-of-the-money options weighted ΔK/K²,
/// K₀ the last strike at or below the forward, where put and call are averaged.
#[differentiable]
pub fn varswap_replication_position(fwd: f64, vols: &[f64], #[constant] strikes: &[f64], #[constant] t: f64) -> f64 {
    let n = strikes.len();
    let i0 = strikes.iter().rposition(|&k| k <= fwd).unwrap_or(0);
    let k0 = strikes[i0];
    let mut sum = 0.0;
    for i in 0..n {
        let dk = if i == 0 {
            strikes[1] - strikes[0]
        } else if i == n - 1 {
            strikes[n - 1] - strikes[n - 2]
        } else {
            0.5 * (strikes[i + 1] - strikes[i - 1])
        };
        let q = match i.cmp(&i0) {
            Ordering::Less => black(fwd, strikes[i], vols[i], t, false),
            Ordering::Greater => black(fwd, strikes[i], vols[i], t, true),
            Ordering::Equal => 0.5 * (black(fwd, strikes[i], vols[i], t, false) + black(fwd, strikes[i], vols[i], t, true)),
        };
        sum += dk / (strikes[i] * strikes[i]) * q;
    }
    2.0 / t * sum - (fwd / k0 - 1.0).powi(2) / t
}

pub fn check() -> Result<(), String> {
    let strikes = [70.0, 80.0, 90.0, 95.0, 100.0, 105.0, 110.0, 120.0, 130.0];
    for (fwd, vols) in [
        (101.5, vec![0.32, 0.28, 0.24, 0.22, 0.2, 0.19, 0.185, 0.18, 0.18]),
        (93.0, vec![0.4, 0.35, 0.3, 0.28, 0.26, 0.25, 0.24, 0.235, 0.23]),
    ] {
        let (v, dfwd, dvols) = varswap_replication_position_grad(fwd, &vols, &strikes, 0.5);
        crate::support::same_value("varswap", v, varswap_replication_position(fwd, &vols, &strikes, 0.5))?;
        let mut p = vec![fwd];
        p.extend(&vols);
        let want = crate::support::fd_grad(|q| varswap_replication_position(q[0], &q[1..], &strikes, 0.5), &p);
        let mut got = vec![dfwd];
        got.extend(&dvols);
        crate::support::close("varswap_replication_position", &got, &want, 1e-6)?;
    }
    Ok(())
}
