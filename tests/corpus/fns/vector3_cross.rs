use autograd::differentiable;
use nalgebra::Vector3;

/// Torque magnitude squared r × F.
#[differentiable]
pub fn vector3_cross(r: &Vector3<f64>, f: &Vector3<f64>) -> f64 {
    r.cross(f).norm_squared()
}

pub fn check() -> Result<(), String> {
    for x in [[1.0, 0.5, -0.2, 0.0, 0.1, 0.3], [2.0, -1.0, 0.5, 0.3, 0.7, 0.3]] {
        let (r, f) = (Vector3::new(x[0], x[1], x[2]), Vector3::new(x[3], x[4], x[5]));
        let (v, gr, gf) = vector3_cross_grad(&r, &f);
        crate::support::same_value("torque", v, vector3_cross(&r, &f))?;
        let want = crate::support::fd_grad(|z| vector3_cross(&Vector3::new(z[0], z[1], z[2]), &Vector3::new(z[3], z[4], z[5])), &x);
        let got = [gr[0], gr[1], gr[2], gf[0], gf[1], gf[2]];
        crate::support::close("vector3_cross", &got, &want, 1e-6)?;
    }
    Ok(())
}
