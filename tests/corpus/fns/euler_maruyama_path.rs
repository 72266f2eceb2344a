use autograd::differentiable;

/// Ornstein–Uhlenbeck path by Euler–Maruyama; returns the terminal value.
#[differentiable]
pub fn euler_maruyama_path(x0: f64, kappa: f64, theta: f64, sigma: f64, #[constant] dt: f64, #[constant] dw: &[f64]) -> f64 {
    let mut x = x0;
    for w in dw.iter() {
        x += kappa * (theta - x) * dt + sigma * w;
    }
    x
}

pub fn check() -> Result<(), String> {
    let dw = [0.01, -0.03, 0.02, 0.05, -0.01, 0.0, 0.015];
    for p in [[0.03, 1.5, 0.04, 0.01], [0.1, 0.3, 0.02, 0.2]] {
        let (v, a, b, c, d) = euler_maruyama_path_grad(p[0], p[1], p[2], p[3], 0.1, &dw);
        crate::support::same_value("em", v, euler_maruyama_path(p[0], p[1], p[2], p[3], 0.1, &dw))?;
        let want = crate::support::fd_grad(|q| euler_maruyama_path(q[0], q[1], q[2], q[3], 0.1, &dw), &p);
        crate::support::close("euler_maruyama_path", &[a, b, c, d], &want, 1e-6)?;
    }
    Ok(())
}
