use autograd::differentiable;
use nalgebra::Vector3;

/// Elastic energy of one tetrahedron (4 vertices, flat xyz): springs on the
/// six edges plus a penalty on the signed volume drifting from its rest value.
#[differentiable]
pub fn tetra_volume_spring(x: &[f64], #[constant] rest_len: f64, #[constant] rest_vol: f64, #[constant] k_vol: f64) -> f64 {
    let p0 = Vector3::new(x[0], x[1], x[2]);
    let p1 = Vector3::new(x[3], x[4], x[5]);
    let p2 = Vector3::new(x[6], x[7], x[8]);
    let p3 = Vector3::new(x[9], x[10], x[11]);
    let e1 = p1 - p0;
    let e2 = p2 - p0;
    let e3 = p3 - p0;
    let volume = e1.dot(&e2.cross(&e3)) / 6.0;
    let edges = [e1, e2, e3, p2 - p1, p3 - p1, p3 - p2];
    let mut energy = 0.5 * k_vol * (volume - rest_vol).powi(2);
    for e in edges.iter() {
        energy += 0.5 * (e.norm() - rest_len).powi(2);
    }
    energy
}

pub fn check() -> Result<(), String> {
    for x in [
        vec![0.0, 0.0, 0.0, 1.1, 0.0, 0.1, 0.4, 0.9, 0.0, 0.3, 0.4, 0.8],
        vec![0.1, -0.2, 0.0, 0.9, 0.2, -0.1, 0.5, 1.2, 0.3, 0.6, 0.3, 1.1],
    ] {
        let (v, g) = tetra_volume_spring_grad(&x, 1.0, 0.117, 50.0);
        crate::support::same_value("tetra", v, tetra_volume_spring(&x, 1.0, 0.117, 50.0))?;
        let want = crate::support::fd_grad(|q| tetra_volume_spring(q, 1.0, 0.117, 50.0), &x);
        crate::support::close("tetra_volume_spring", &g, &want, 1e-6)?;
    }
    Ok(())
}
