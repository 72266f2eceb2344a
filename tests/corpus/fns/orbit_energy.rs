use autograd::differentiable;
use nalgebra::Vector3;

/// Specific orbital energy and angular momentum penalty of a satellite state.
#[differentiable]
pub fn orbit_energy(r: &Vector3<f64>, v: &Vector3<f64>, #[constant] mu: f64) -> f64 {
    let h = r.cross(v);
    let energy = 0.5 * v.norm_squared() - mu / r.norm();
    energy + 0.01 * h.norm()
}

pub fn check() -> Result<(), String> {
    let x = [7000.0, 100.0, -50.0, 0.5, 7.5, 0.2];
    let f = |q: &[f64]| orbit_energy(&Vector3::new(q[0], q[1], q[2]), &Vector3::new(q[3], q[4], q[5]), 398600.0);
    let (val, gr, gv) = orbit_energy_grad(&Vector3::new(x[0], x[1], x[2]), &Vector3::new(x[3], x[4], x[5]), 398600.0);
    crate::support::same_value("orbit", val, f(&x))?;
    let got = [gr[0], gr[1], gr[2], gv[0], gv[1], gv[2]];
    crate::support::close("orbit_energy", &got, &crate::support::fd_grad(f, &x), 1e-6)
}
