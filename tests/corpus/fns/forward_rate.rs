use autograd::differentiable;

/// Simple forward rate between t1 and t2 from two continuously compounded zero rates.
#[differentiable]
pub fn forward_rate(r1: f64, r2: f64, t1: f64, t2: f64) -> f64 {
    assert!(t2 > t1, "forward period must be positive");
    let df1 = (-r1 * t1).exp();
    let df2 = (-r2 * t2).exp();
    (df1 / df2 - 1.0) / (t2 - t1)
}

pub fn check() -> Result<(), String> {
    scalar_check!(forward_rate, forward_rate_grad, 1e-6,
        [[0.02, 0.03, 1.0, 2.0], [0.05, 0.045, 0.5, 3.0]], (r1, r2, t1, t2))
}
