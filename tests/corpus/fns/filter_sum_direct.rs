use autograd::differentiable;

/// Sum of squares of the entries above a threshold, straight from
/// `filter` without collecting.
#[differentiable]
pub fn filter_sum_direct(x: &[f64]) -> f64 {
    x.iter().filter(|&&v| v > 0.5).map(|v| v * v).sum::<f64>() + x.iter().cloned().sum::<f64>()
}

pub fn check() -> Result<(), String> {
    for x in [vec![0.3, 0.9, 1.4, -0.2], vec![2.0, 0.1, 0.7]] {
        let (v, g) = filter_sum_direct_grad(&x);
        crate::support::same_value("filter_sum_direct", v, filter_sum_direct(&x))?;
        let want = crate::support::fd_grad(filter_sum_direct, &x);
        crate::support::close("filter_sum_direct", &g, &want, 1e-6)?;
    }
    Ok(())
}
