use autograd::differentiable;

/// Differences of a series pushed into a Vec, then their sum of squares.
#[differentiable]
pub fn vec_push_collect(prices: &[f64]) -> f64 {
    let mut returns = Vec::with_capacity(prices.len() - 1);
    for i in 1..prices.len() {
        returns.push((prices[i] / prices[i - 1]).ln());
    }
    let mean = returns.iter().sum::<f64>() / returns.len() as f64;
    returns.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (returns.len() - 1) as f64
}

pub fn check() -> Result<(), String> {
    for x in [vec![100.0, 101.0, 99.0, 102.5, 103.0], vec![50.0, 49.0, 51.0, 52.0]] {
        let (v, g) = vec_push_collect_grad(&x);
        crate::support::same_value("var", v, vec_push_collect(&x))?;
        let want = crate::support::fd_grad(vec_push_collect, &x);
        crate::support::close("vec_push_collect", &g, &want, 1e-6)?;
    }
    Ok(())
}
