use autograd::differentiable;

/// Mean and variance through a fold carrying a tuple, then a Sharpe-like
/// ratio.
#[differentiable]
pub fn tuple_vec_collect_unzip(r: &[f64]) -> f64 {
    let n = r.len() as f64;
    let (s, s2) = r.iter().fold((0.0, 0.0), |(a, b), &x| (a + x, b + x * x));
    let mean = s / n;
    let var = s2 / n - mean * mean;
    mean / var.sqrt()
}

pub fn check() -> Result<(), String> {
    let r = [0.01, -0.02, 0.03, 0.015, -0.005];
    let (v, g) = tuple_vec_collect_unzip_grad(&r);
    crate::support::same_value("sharpe", v, tuple_vec_collect_unzip(&r))?;
    let want = crate::support::fd_grad(tuple_vec_collect_unzip, &r);
    crate::support::close("sharpe", &g, &want, 1e-6)?;
    Ok(())
}
