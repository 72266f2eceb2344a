use autograd::differentiable;
use nalgebra::{Matrix2, Vector2};

/// Energy of an anisotropic 2-D spring, 0.5·dᵀ K d with K = R·diag(k1, k2)·Rᵀ
/// built in the body from nalgebra `Matrix2`s.
#[differentiable]
pub fn matrix2_vector2_quadform(x: Vector2<f64>, k1: f64, k2: f64, #[constant] angle: f64) -> f64 {
    let (s, c) = angle.sin_cos();
    let rot = Matrix2::new(c, -s, s, c);
    let stiff = rot * Matrix2::new(k1, 0.0, 0.0, k2) * rot.transpose();
    let d = x - Vector2::new(1.0, -0.5);
    0.5 * d.dot(&(stiff * d))
}

pub fn check() -> Result<(), String> {
    for p in [[0.3, 0.4, 2.0, 0.5], [-1.0, 1.5, 1.0, 3.0]] {
        let x = Vector2::new(p[0], p[1]);
        let (v, dx, dk1, dk2) = matrix2_vector2_quadform_grad(x, p[2], p[3], 0.6);
        crate::support::same_value("spring", v, matrix2_vector2_quadform(x, p[2], p[3], 0.6))?;
        let want = crate::support::fd_grad(|q| matrix2_vector2_quadform(Vector2::new(q[0], q[1]), q[2], q[3], 0.6), &p);
        crate::support::close("matrix2_vector2_quadform", &[dx[0], dx[1], dk1, dk2], &want, 1e-6)?;
    }
    Ok(())
}
