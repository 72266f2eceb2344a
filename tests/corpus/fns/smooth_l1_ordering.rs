use autograd::differentiable;
use std::cmp::Ordering;

/// Smooth-L1 loss (as in box regression) of a line's residuals, the branch
/// chosen by matching on `partial_cmp`.
#[differentiable]
pub fn smooth_l1_ordering(slope: f64, intercept: f64, #[constant] x: &[f64], #[constant] y: &[f64], #[constant] beta: f64) -> f64 {
    let mut total = 0.0;
    for (&xi, &yi) in x.iter().zip(y) {
        let r = slope * xi + intercept - yi;
        total += match r.abs().partial_cmp(&beta) {
            Some(Ordering::Less) => 0.5 * r * r / beta,
            _ => r.abs() - 0.5 * beta,
        };
    }
    total / x.len() as f64
}

pub fn check() -> Result<(), String> {
    let x = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0];
    let y = [0.3, 1.1, 2.9, 2.5, 4.4, 6.8];
    for p in [[1.0, 0.1], [1.2, -0.15]] {
        let (v, ds, di) = smooth_l1_ordering_grad(p[0], p[1], &x, &y, 0.5);
        crate::support::same_value("smooth_l1", v, smooth_l1_ordering(p[0], p[1], &x, &y, 0.5))?;
        let want = crate::support::fd_grad(|q| smooth_l1_ordering(q[0], q[1], &x, &y, 0.5), &p);
        crate::support::close("smooth_l1_ordering", &[ds, di], &want, 1e-6)?;
    }
    Ok(())
}
