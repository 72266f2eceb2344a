use autograd::differentiable;
use nalgebra::{Matrix3, Vector3};

/// Point-cloud alignment residual of a yaw-pitch-roll rotation plus a
/// translation: Σ‖R(ψ, θ, φ)·p + t − q‖².
#[differentiable]
pub fn euler_zyx_alignment(angles: [f64; 3], t: Vector3<f64>, #[constant] src: &[[f64; 3]], #[constant] dst: &[[f64; 3]]) -> f64 {
    let [yaw, pitch, roll] = angles;
    let (sy, cy) = yaw.sin_cos();
    let (sp, cp) = pitch.sin_cos();
    let (sr, cr) = roll.sin_cos();
    let rz = Matrix3::new(cy, -sy, 0.0, sy, cy, 0.0, 0.0, 0.0, 1.0);
    let ry = Matrix3::new(cp, 0.0, sp, 0.0, 1.0, 0.0, -sp, 0.0, cp);
    let rx = Matrix3::new(1.0, 0.0, 0.0, 0.0, cr, -sr, 0.0, sr, cr);
    let r = rz * ry * rx;
    let mut sse = 0.0;
    for (p, q) in src.iter().zip(dst) {
        let moved = r * Vector3::new(p[0], p[1], p[2]) + t;
        sse += (moved - Vector3::new(q[0], q[1], q[2])).norm_squared();
    }
    sse
}

pub fn check() -> Result<(), String> {
    let src = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.5], [0.3, -0.4, 1.0], [-0.8, 0.2, 0.1]];
    let dst = [[0.9, 0.5, 0.1], [-0.4, 0.8, 0.7], [0.2, 0.1, 1.2], [-0.6, -0.5, 0.0]];
    for p in [[0.3, -0.1, 0.2, 0.05, 0.1, -0.05], [1.0, 0.4, -0.7, -0.2, 0.3, 0.4]] {
        let t = Vector3::new(p[3], p[4], p[5]);
        let (v, da, dt) = euler_zyx_alignment_grad([p[0], p[1], p[2]], t, &src, &dst);
        crate::support::same_value("align", v, euler_zyx_alignment([p[0], p[1], p[2]], t, &src, &dst))?;
        let want = crate::support::fd_grad(|q| euler_zyx_alignment([q[0], q[1], q[2]], Vector3::new(q[3], q[4], q[5]), &src, &dst), &p);
        crate::support::close("euler_zyx_alignment", &[da[0], da[1], da[2], dt[0], dt[1], dt[2]], &want, 1e-6)?;
    }
    Ok(())
}
