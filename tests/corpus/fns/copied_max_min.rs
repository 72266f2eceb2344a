use autograd::differentiable;

/// Range of a sample (max − min) via copied iterators.
#[differentiable]
pub fn copied_max_min(x: &[f64]) -> f64 {
    let hi = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let lo = x.iter().copied().fold(f64::INFINITY, f64::min);
    hi - lo
}

pub fn check() -> Result<(), String> {
    for x in [vec![0.5, 1.3, -0.7, 2.0], vec![1.1, 0.2, 0.9, -0.4]] {
        let (v, g) = copied_max_min_grad(&x);
        crate::support::same_value("copied_max_min", v, copied_max_min(&x))?;
        let want = crate::support::fd_grad(|q| copied_max_min(q), &x);
        crate::support::close("copied_max_min", &g, &want, 1e-6)?;
    }
    Ok(())
}
