use autograd::differentiable;
use nalgebra::Vector3;

/// Gravitational potential energy between two bodies plus a spring term.
#[differentiable]
pub fn vector3_physics(p: Vector3<f64>, q: Vector3<f64>) -> f64 {
    let d = p - q;
    let r = d.norm();
    -1.0 / r + 0.5 * (r - 1.0).powi(2)
}

pub fn check() -> Result<(), String> {
    for x in [[1.0, 0.5, -0.2, 0.0, 0.1, 0.3], [2.0, -1.0, 0.5, 0.3, 0.3, 0.3]] {
        let (p, q) = (Vector3::new(x[0], x[1], x[2]), Vector3::new(x[3], x[4], x[5]));
        let (v, gp, gq) = vector3_physics_grad(p, q);
        crate::support::same_value("phys", v, vector3_physics(p, q))?;
        let want = crate::support::fd_grad(|z| vector3_physics(Vector3::new(z[0], z[1], z[2]), Vector3::new(z[3], z[4], z[5])), &x);
        let got = [gp[0], gp[1], gp[2], gq[0], gq[1], gq[2]];
        crate::support::close("vector3_physics", &got, &want, 1e-6)?;
    }
    Ok(())
}
