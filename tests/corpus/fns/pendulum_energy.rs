use autograd::differentiable;

/// Simulates a pendulum with semi-implicit Euler and returns the energy drift.
#[differentiable]
pub fn pendulum_energy(length: f64, theta0: f64, #[constant] steps: usize) -> f64 {
    const G: f64 = 9.81;
    let dt = 0.01;
    let energy = |theta: f64, omega: f64| 0.5 * length * length * omega * omega + G * length * (1.0 - theta.cos());
    let e0 = energy(theta0, 0.0);
    let mut theta = theta0;
    let mut omega = 0.0;
    for _ in 0..steps {
        omega -= G / length * theta.sin() * dt;
        theta += omega * dt;
    }
    energy(theta, omega) - e0
}

pub fn check() -> Result<(), String> {
    for p in [[1.0, 0.3], [2.5, 1.0]] {
        let (v, dl, dt) = pendulum_energy_grad(p[0], p[1], 50);
        crate::support::same_value("pendulum", v, pendulum_energy(p[0], p[1], 50))?;
        let want = crate::support::fd_grad(|q| pendulum_energy(q[0], q[1], 50), &p);
        crate::support::close("pendulum_energy", &[dl, dt], &want, 1e-5)?;
    }
    Ok(())
}
