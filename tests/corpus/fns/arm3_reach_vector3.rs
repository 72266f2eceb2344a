use autograd::differentiable;
use nalgebra::Vector3;

/// Reaching cost of a 3-DOF arm (base yaw, shoulder pitch, elbow pitch):
/// forward kinematics with `Vector3` joint positions, squared distance of
/// the wrist to a target written out with `.x/.y/.z`, a small effort term
/// and a penalty if the elbow dips below the table.
#[differentiable]
pub fn arm3_reach_vector3(q: [f64; 3], upper: f64, fore: f64, #[constant] target: Vector3<f64>) -> f64 {
    let base_height = 0.3;
    let heading = Vector3::new(q[0].cos(), q[0].sin(), 0.0);
    let up = Vector3::new(0.0, 0.0, 1.0);
    let shoulder = Vector3::new(0.0, 0.0, base_height);
    let elbow = shoulder + (heading * q[1].cos() + up * q[1].sin()) * upper;
    let reach = q[1] + q[2];
    let wrist = elbow + (heading * reach.cos() + up * reach.sin()) * fore;

    let dx = wrist.x - target.x;
    let dy = wrist.y - target.y;
    let dz = wrist.z - target.z;
    let mut cost = dx * dx + dy * dy + dz * dz;
    cost += 0.01 * (q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
    if elbow.z < 0.0 {
        cost += 10.0 * elbow.z * elbow.z;
    }
    cost
}

pub fn check() -> Result<(), String> {
    let target = Vector3::new(0.4, 0.3, 0.5);
    for p in [[0.5, 0.6, -0.9, 0.4, 0.35], [-0.3, 1.1, -1.5, 0.5, 0.3]] {
        let q = [p[0], p[1], p[2]];
        let (v, dq, du, df) = arm3_reach_vector3_grad(q, p[3], p[4], target);
        crate::support::same_value("arm3", v, arm3_reach_vector3(q, p[3], p[4], target))?;
        let want = crate::support::fd_grad(|x| arm3_reach_vector3([x[0], x[1], x[2]], x[3], x[4], target), &p);
        crate::support::close("arm3_reach_vector3", &[dq[0], dq[1], dq[2], du, df], &want, 1e-6)?;
    }
    Ok(())
}
