use autograd::differentiable;

/// Price of a semi-annual amortising bond by backward recursion from
/// maturity, with a spread growing with the period number; the loop walks
/// the cash flows with `iter().rev().enumerate()`.
#[differentiable]
pub fn pv_rev_enumerate(yield_: f64, spread: f64, #[constant] cashflows: &[f64]) -> f64 {
    let n = cashflows.len();
    let mut value = 0.0;
    for (k, cf) in cashflows.iter().rev().enumerate() {
        let period = n - k;
        let r = yield_ + spread * (period as f64) / (n as f64);
        value = (value + cf) / (1.0 + r / 2.0);
    }
    value
}

pub fn check() -> Result<(), String> {
    let cfs = [30.0, 29.0, 28.0, 27.0, 26.0, 25.0, 124.0];
    for p in [[0.04, 0.01], [0.07, -0.005]] {
        let (v, dy, ds) = pv_rev_enumerate_grad(p[0], p[1], &cfs);
        crate::support::same_value("pv", v, pv_rev_enumerate(p[0], p[1], &cfs))?;
        let want = crate::support::fd_grad(|q| pv_rev_enumerate(q[0], q[1], &cfs), &p);
        crate::support::close("pv_rev_enumerate", &[dy, ds], &want, 1e-6)?;
    }
    Ok(())
}
