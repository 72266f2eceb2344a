use autograd::differentiable;

/// A weighted dot product over an index range, with `std::iter::zip`
/// for the second term.
#[differentiable]
pub fn range_map_dot(w: &[f64], #[constant] x: &[f64]) -> f64 {
    let n = w.len();
    let lin = (0..n).map(|i| w[i] * x[i]).sum::<f64>();
    let quad: f64 = std::iter::zip(w, x).map(|(a, b)| a * a * b).sum();
    lin + 0.5 * quad
}

pub fn check() -> Result<(), String> {
    let x = [0.5, -1.0, 2.0];
    for w in [vec![0.1, 0.2, 0.3], vec![-1.0, 0.4, 2.5]] {
        let (v, g) = range_map_dot_grad(&w, &x);
        crate::support::same_value("range_map_dot", v, range_map_dot(&w, &x))?;
        let want = crate::support::fd_grad(|q| range_map_dot(q, &x), &w);
        crate::support::close("range_map_dot", &g, &want, 1e-6)?;
    }
    Ok(())
}
