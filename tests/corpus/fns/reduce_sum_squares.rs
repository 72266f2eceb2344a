use autograd::differentiable;

/// Root of the sum of squares, accumulated with `reduce`.
#[differentiable]
pub fn reduce_sum_squares(x: &[f64]) -> f64 {
    let ss = x.iter().map(|v| v * v).collect::<Vec<f64>>();
    ss.iter().copied().reduce(|a, b| a + b).unwrap_or(0.0).sqrt()
}

pub fn check() -> Result<(), String> {
    for x in [vec![0.3, -1.2, 2.0], vec![1.0, 1.0, 0.5, -0.25]] {
        let (v, g) = reduce_sum_squares_grad(&x);
        crate::support::same_value("rss", v, reduce_sum_squares(&x))?;
        let want = crate::support::fd_grad(|q| reduce_sum_squares(q), &x);
        crate::support::close("reduce_sum_squares", &g, &want, 1e-6)?;
    }
    Ok(())
}
