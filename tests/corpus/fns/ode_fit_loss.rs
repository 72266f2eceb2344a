use autograd::differentiable;

/// Squared error of a logistic-growth Euler trajectory to observations.
#[differentiable]
pub fn ode_fit_loss(r: f64, capacity: f64, #[constant] observed: &[f64]) -> f64 {
    let dt = 0.1;
    let mut n = observed[0];
    let mut loss = 0.0;
    for (i, &obs) in observed.iter().enumerate() {
        if i > 0 {
            n += dt * r * n * (1.0 - n / capacity);
        }
        let e = n - obs;
        loss += e * e;
    }
    loss
}

pub fn check() -> Result<(), String> {
    let obs = [1.0, 1.2, 1.45, 1.7, 2.0, 2.4];
    for p in [[1.5, 10.0], [2.0, 5.0]] {
        let (v, a, b) = ode_fit_loss_grad(p[0], p[1], &obs);
        crate::support::same_value("ode", v, ode_fit_loss(p[0], p[1], &obs))?;
        let want = crate::support::fd_grad(|q| ode_fit_loss(q[0], q[1], &obs), &p);
        crate::support::close("ode_fit_loss", &[a, b], &want, 1e-6)?;
    }
    Ok(())
}
