use autograd::differentiable;

/// Cube root by a fixed number of bisection steps: piecewise constant, derivative zero.
#[differentiable]
pub fn bisection_unrolled(c: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, c.max(1.0));
    for _ in 0..30 {
        let mid = 0.5 * (lo + hi);
        if mid * mid * mid > c {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    0.5 * (lo + hi) + c * 0.0
}

/// The result depends on c only through comparisons: the derivative is zero a.e.
pub fn check() -> Result<(), String> {
    for c in [2.0, 5.5] {
        let (v, dc) = bisection_unrolled_grad(c);
        crate::support::same_value("bisect", v, bisection_unrolled(c))?;
        crate::support::close("bisection_unrolled", &[dc], &[0.0], 1e-6)?;
    }
    Ok(())
}
