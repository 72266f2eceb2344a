use autograd::differentiable;

/// Curvature penalty of a curve: second differences from `windows(3)`,
/// weighted by position from `enumerate().skip(1)`.
#[differentiable]
pub fn enumerate_skip_windows_zip(y: &[f64]) -> f64 {
    let mut s = 0.0;
    for (k, w) in y.windows(3).enumerate().skip(1) {
        let d2 = w[0] - 2.0 * w[1] + w[2];
        s += (k as f64) * d2 * d2;
    }
    let tv: f64 = y.iter().zip(y.iter().skip(1)).map(|(a, b)| (b - a).abs()).sum();
    s + 0.1 * tv
}

pub fn check() -> Result<(), String> {
    let y = [0.3, 1.1, 0.7, 1.9, 1.2, 2.4];
    let (v, g) = enumerate_skip_windows_zip_grad(&y);
    crate::support::same_value("curv", v, enumerate_skip_windows_zip(&y))?;
    let want = crate::support::fd_grad(enumerate_skip_windows_zip, &y);
    crate::support::close("curv", &g, &want, 1e-6)?;
    Ok(())
}
