use autograd::differentiable;

/// Explicit Euler for dy/dt = -k y over n steps.
#[differentiable]
pub fn euler_decay(y0: f64, k: f64, #[constant] dt: f64, #[constant] n: usize) -> f64 {
    let mut y = y0;
    for _ in 0..n {
        y = y - dt * k * y;
    }
    y
}

pub fn check() -> Result<(), String> {
    for p in [[1.0, 0.5], [2.5, 3.0]] {
        let (v, a, b) = euler_decay_grad(p[0], p[1], 0.01, 100);
        crate::support::same_value("euler", v, euler_decay(p[0], p[1], 0.01, 100))?;
        let want = crate::support::fd_grad(|q| euler_decay(q[0], q[1], 0.01, 100), &p);
        crate::support::close("euler_decay", &[a, b], &want, 1e-6)?;
    }
    Ok(())
}
