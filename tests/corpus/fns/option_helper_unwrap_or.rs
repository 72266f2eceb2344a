use autograd::differentiable;

/// A helper returning `Option<f64>` (a rate, if the tenor is quoted),
/// used with `unwrap_or`.
#[differentiable]
fn quoted(rates: &[f64], i: usize) -> Option<f64> {
    if i < rates.len() { Some(rates[i]) } else { None }
}

#[differentiable]
pub fn option_helper_unwrap_or(rates: &[f64], #[constant] n: usize) -> f64 {
    let mut df = 1.0;
    let mut pv = 0.0;
    for i in 0..n {
        let r = quoted(rates, i).unwrap_or(0.04);
        df /= 1.0 + r;
        pv += df;
    }
    pv
}

pub fn check() -> Result<(), String> {
    let r = [0.01, 0.02, 0.03];
    let (v, g) = option_helper_unwrap_or_grad(&r, 5);
    crate::support::same_value("quoted", v, option_helper_unwrap_or(&r, 5))?;
    let want = crate::support::fd_grad(|q| option_helper_unwrap_or(q, 5), &r);
    crate::support::close("quoted", &g, &want, 1e-6)?;
    Ok(())
}
