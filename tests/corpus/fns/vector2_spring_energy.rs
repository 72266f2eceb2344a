use autograd::differentiable;
use nalgebra::Vector2;

/// Energy of two springs anchoring a point in the plane.
#[differentiable]
pub fn vector2_spring_energy(p: &Vector2<f64>, #[constant] a: &Vector2<f64>, #[constant] b: &Vector2<f64>, k: f64, rest: f64) -> f64 {
    let da = (p - a).norm() - rest;
    let db = (p - b).norm() - rest;
    0.5 * k * (da * da + db * db)
}

pub fn check() -> Result<(), String> {
    let a = Vector2::new(0.0, 0.0);
    let b = Vector2::new(2.0, 0.0);
    for x in [[1.0, 1.5, 3.0, 1.2], [0.3, -0.8, 1.0, 0.5]] {
        let p = Vector2::new(x[0], x[1]);
        let (v, gp, gk, gr) = vector2_spring_energy_grad(&p, &a, &b, x[2], x[3]);
        crate::support::same_value("spring", v, vector2_spring_energy(&p, &a, &b, x[2], x[3]))?;
        let want = crate::support::fd_grad(|q| vector2_spring_energy(&Vector2::new(q[0], q[1]), &a, &b, q[2], q[3]), &x);
        crate::support::close("vector2_spring_energy", &[gp[0], gp[1], gk, gr], &want, 1e-6)?;
    }
    Ok(())
}
