use autograd::differentiable;
use nalgebra::{Matrix4, Vector4};

/// A point pushed through a homogeneous transform (rotation about z by an
/// angle, then a translation), then projected; the loss is its distance to
/// a target pixel.
#[differentiable]
pub fn matrix4_homogeneous_transform(angle: f64, tx: f64, ty: f64, tz: f64, #[constant] p: [f64; 3], #[constant] target: (f64, f64)) -> f64 {
    let (s, c) = angle.sin_cos();
    let m = Matrix4::new(
        c, -s, 0.0, tx,
        s, c, 0.0, ty,
        0.0, 0.0, 1.0, tz,
        0.0, 0.0, 0.0, 1.0,
    );
    let q = m * Vector4::new(p[0], p[1], p[2], 1.0);
    let u = q[0] / q[2];
    let v = q[1] / q[2];
    (u - target.0).powi(2) + (v - target.1).powi(2)
}

pub fn check() -> Result<(), String> {
    let p = [0.3, 0.1, -0.2, 4.0];
    let pt = [1.0, 0.5, 2.0];
    let f = |q: &[f64]| matrix4_homogeneous_transform(q[0], q[1], q[2], q[3], pt, (0.2, 0.3));
    let (v, a, b, c, d) = matrix4_homogeneous_transform_grad(p[0], p[1], p[2], p[3], pt, (0.2, 0.3));
    crate::support::same_value("proj", v, f(&p))?;
    crate::support::close("matrix4_homogeneous_transform", &[a, b, c, d], &crate::support::fd_grad(f, &p), 1e-6)
}
