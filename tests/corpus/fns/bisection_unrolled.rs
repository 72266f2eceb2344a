use autograd::differentiable;

/// Cube root by a fixed number of bisection steps. For fixed branch
/// decisions the result is linear in c (the bracket starts at c), so the
/// derivative is that slope, which central differences see between jumps.
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

pub fn check() -> Result<(), String> {
    for c in [2.0, 5.5] {
        let (v, dc) = bisection_unrolled_grad(c);
        crate::support::same_value("bisect", v, bisection_unrolled(c))?;
        // A step far below the bracket's last width (2⁻³⁰·c), so no
        // comparison changes between c − h and c + h.
        let h = 1e-12;
        let want = (bisection_unrolled(c + h) - bisection_unrolled(c - h)) / (2.0 * h);
        crate::support::close("bisection_unrolled", &[dc], &[want], 1e-3)?;
    }
    Ok(())
}
