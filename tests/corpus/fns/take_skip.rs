use autograd::differentiable;

/// Sum of the middle entries, squared: take/skip.
#[differentiable]
pub fn take_skip(x: &[f64]) -> f64 {
    let mid: f64 = x.iter().skip(1).take(2).sum();
    mid * mid + x[0]
}

pub fn check() -> Result<(), String> {
    for x in [vec![0.5, 1.3, -0.7, 2.0], vec![1.1, 0.2, 0.9, -0.4]] {
        let (v, g) = take_skip_grad(&x);
        crate::support::same_value("take_skip", v, take_skip(&x))?;
        let want = crate::support::fd_grad(|q| take_skip(q), &x);
        crate::support::close("take_skip", &g, &want, 1e-6)?;
    }
    Ok(())
}
