use autograd::differentiable;

/// Rate lookup with `get` and `map_or` for a missing tenor, then an
/// annuity.
#[differentiable]
pub fn option_map_or_lookup(rates: &[f64], #[constant] n: usize) -> f64 {
    let mut pv = 0.0;
    for i in 0..n {
        let r = rates.get(i).map_or(0.05, |&r| r);
        pv += 1.0 / (1.0 + r).powi(i as i32 + 1);
    }
    pv
}

pub fn check() -> Result<(), String> {
    for r in [vec![0.01, 0.02, 0.025], vec![0.03, 0.031]] {
        let (v, g) = option_map_or_lookup_grad(&r, 4);
        crate::support::same_value("lookup", v, option_map_or_lookup(&r, 4))?;
        let want = crate::support::fd_grad(|q| option_map_or_lookup(q, 4), &r);
        crate::support::close("option_map_or_lookup", &g, &want, 1e-6)?;
    }
    Ok(())
}
