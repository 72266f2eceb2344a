use autograd::differentiable;
use nalgebra::{Matrix3, Vector2, Vector3};

/// Pose-tracking cost of a planar 3R arm with a barrier against singular
/// configurations: joint positions by forward kinematics as `Vector2`s,
/// the 3×3 Jacobian of (x, y, φ) assembled column by column from them, and
/// −w·ln(det J)² added to the squared tip error.
#[differentiable]
pub fn planar3r_manipulability(q1: f64, q2: f64, q3: f64, #[constant] links: [f64; 3], #[constant] goal: Vector2<f64>) -> f64 {
    let [l1, l2, l3] = links;
    let a1 = q1;
    let a2 = q1 + q2;
    let a3 = q1 + q2 + q3;
    let j1 = Vector2::new(0.0, 0.0);
    let j2 = j1 + Vector2::new(a1.cos(), a1.sin()) * l1;
    let j3 = j2 + Vector2::new(a2.cos(), a2.sin()) * l2;
    let tip = j3 + Vector2::new(a3.cos(), a3.sin()) * l3;

    // Revolute joint i moves the tip by ẑ × (tip − joint_i) and turns it by 1.
    let column = |joint: Vector2<f64>| Vector3::new(-(tip.y - joint.y), tip.x - joint.x, 1.0);
    let jac = Matrix3::from_columns(&[column(j1), column(j2), column(j3)]);
    let det = jac.determinant();

    let err = tip - goal;
    err.x * err.x + err.y * err.y - 0.05 * (det * det).ln()
}

pub fn check() -> Result<(), String> {
    let links = [1.0, 0.8, 0.4];
    let goal = Vector2::new(1.2, 0.9);
    for p in [[0.3, 0.9, -0.4], [-0.2, 1.4, 0.7]] {
        let (v, d1, d2, d3) = planar3r_manipulability_grad(p[0], p[1], p[2], links, goal);
        crate::support::same_value("planar3r", v, planar3r_manipulability(p[0], p[1], p[2], links, goal))?;
        let want = crate::support::fd_grad(|q| planar3r_manipulability(q[0], q[1], q[2], links, goal), &p);
        crate::support::close("planar3r_manipulability", &[d1, d2, d3], &want, 1e-6)?;
    }
    Ok(())
}
