use autograd::differentiable;

/// Lorenz right-hand side.
#[differentiable]
pub fn lorenz_rhs(s: [f64; 3], sigma: f64, rho: f64, beta: f64) -> [f64; 3] {
    [
        sigma * (s[1] - s[0]),
        s[0] * (rho - s[2]) - s[1],
        s[0] * s[1] - beta * s[2],
    ]
}

/// s + h k, element by element.
#[differentiable]
pub fn axpy3(s: [f64; 3], h: f64, k: [f64; 3]) -> [f64; 3] {
    [s[0] + h * k[0], s[1] + h * k[1], s[2] + h * k[2]]
}

/// Classic RK4 on the Lorenz system with helper functions returning arrays;
/// the loss is the squared distance of the end point from a target.
#[differentiable]
pub fn rk4_lorenz_helpers(sigma: f64, rho: f64, beta: f64, #[constant] dt: f64, #[constant] steps: usize) -> f64 {
    let mut s = [1.0, 1.0, 1.0];
    for _ in 0..steps {
        let k1 = lorenz_rhs(s, sigma, rho, beta);
        let k2 = lorenz_rhs(axpy3(s, 0.5 * dt, k1), sigma, rho, beta);
        let k3 = lorenz_rhs(axpy3(s, 0.5 * dt, k2), sigma, rho, beta);
        let k4 = lorenz_rhs(axpy3(s, dt, k3), sigma, rho, beta);
        for i in 0..3 {
            s[i] += dt / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        }
    }
    let target = [2.0, 3.0, 10.0];
    (0..3).map(|i| (s[i] - target[i]).powi(2)).sum()
}

pub fn check() -> Result<(), String> {
    for p in [[10.0, 28.0, 8.0 / 3.0], [5.0, 15.0, 2.0]] {
        let (v, a, b, c) = rk4_lorenz_helpers_grad(p[0], p[1], p[2], 0.01, 50);
        crate::support::same_value("lorenz", v, rk4_lorenz_helpers(p[0], p[1], p[2], 0.01, 50))?;
        let want = crate::support::fd_grad(|q| rk4_lorenz_helpers(q[0], q[1], q[2], 0.01, 50), &p);
        crate::support::close("rk4_lorenz_helpers", &[a, b, c], &want, 1e-6)?;
    }
    Ok(())
}
