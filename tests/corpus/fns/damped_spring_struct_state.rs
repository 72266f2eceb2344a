use autograd::differentiable;

/// Position and velocity of a unit mass on a spring.
#[derive(Clone, Debug, autograd::Tangent)]
pub struct SpringState {
    pub x: f64,
    pub v: f64,
}

/// Time-integrated mechanical energy of a damped spring started from a
/// given state, stepped with semi-implicit Euler; the state struct comes in
/// as an argument and is rebuilt every step.
#[differentiable]
pub fn damped_spring_struct_state(state: SpringState, stiffness: f64, damping: f64, #[constant] dt: f64, steps: usize) -> f64 {
    let mut s = state;
    let mut energy = 0.0;
    for _ in 0..steps {
        let a = -stiffness * s.x - damping * s.v;
        let v = s.v + a * dt;
        let x = s.x + v * dt;
        s = SpringState { x, v };
        energy += (0.5 * stiffness * s.x * s.x + 0.5 * s.v * s.v) * dt;
    }
    energy
}

pub fn check() -> Result<(), String> {
    for p in [[1.0, 0.0, 4.0, 0.3], [-0.5, 1.5, 2.0, 0.8]] {
        let s = SpringState { x: p[0], v: p[1] };
        let (v, ds, dk, dc) = damped_spring_struct_state_grad(s.clone(), p[2], p[3], 0.01, 300);
        crate::support::same_value("spring", v, damped_spring_struct_state(s, p[2], p[3], 0.01, 300))?;
        let want = crate::support::fd_grad(|q| damped_spring_struct_state(SpringState { x: q[0], v: q[1] }, q[2], q[3], 0.01, 300), &p);
        crate::support::close("damped_spring_struct_state", &[ds.x, ds.v, dk, dc], &want, 1e-6)?;
    }
    Ok(())
}
