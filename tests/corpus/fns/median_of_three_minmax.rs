use autograd::differentiable;

/// Median of three without sorting.
#[differentiable]
fn median3(a: f64, b: f64, c: f64) -> f64 {
    a.max(b).min(a.min(b).max(c))
}

/// A robust line-fit loss: over each rolling triple of observations, the
/// median of the three squared residuals (a rolling least-median-of-squares).
#[differentiable]
pub fn median_of_three_minmax(slope: f64, intercept: f64, #[constant] xs: &[f64], #[constant] ys: &[f64]) -> f64 {
    let r: Vec<f64> = xs.iter().zip(ys).map(|(x, y)| y - slope * x - intercept).collect();
    let mut total = 0.0;
    for i in 2..r.len() {
        total += median3(r[i - 2] * r[i - 2], r[i - 1] * r[i - 1], r[i] * r[i]);
    }
    total
}

pub fn check() -> Result<(), String> {
    let xs = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    let ys = [0.1, 1.3, 1.7, 3.6, 3.9, 5.8, 5.2];
    // Points where no two squared residuals of a triple tie (at (1.2, -0.3)
    // three of them are 0.16: a kink).
    for p in [[0.9, 0.2], [1.05, 0.05]] {
        let (v, ds, di) = median_of_three_minmax_grad(p[0], p[1], &xs, &ys);
        crate::support::same_value("lms", v, median_of_three_minmax(p[0], p[1], &xs, &ys))?;
        let want = crate::support::fd_grad(|q| median_of_three_minmax(q[0], q[1], &xs, &ys), &p);
        crate::support::close("median_of_three_minmax", &[ds, di], &want, 1e-6)?;
    }
    Ok(())
}
