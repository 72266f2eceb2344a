use autograd::differentiable;

/// Phase-space state of a particle.
#[derive(Clone, Copy, Debug)]
struct State {
    x: f64,
    v: f64,
}

/// Duffing restoring acceleration.
#[differentiable]
fn accel(x: f64, k: f64, c: f64) -> f64 {
    -k * x - c * x * x * x
}

/// Final position after velocity-Verlet steps of a Duffing oscillator, the
/// state kept in a struct rebuilt each step.
#[differentiable]
pub fn verlet_state_struct(x0: f64, v0: f64, k: f64, #[constant] dt: f64, steps: usize) -> f64 {
    let c = 0.1;
    let mut s = State { x: x0, v: v0 };
    let mut a = accel(s.x, k, c);
    for _ in 0..steps {
        let x = s.x + s.v * dt + 0.5 * a * dt * dt;
        let a_next = accel(x, k, c);
        let v = s.v + 0.5 * (a + a_next) * dt;
        s = State { x, v };
        a = a_next;
    }
    s.x + 0.1 * s.v
}

pub fn check() -> Result<(), String> {
    for p in [[1.0, 0.0, 2.0], [0.3, -0.8, 0.7]] {
        let (val, dx, dv, dk) = verlet_state_struct_grad(p[0], p[1], p[2], 0.05, 40);
        crate::support::same_value("verlet", val, verlet_state_struct(p[0], p[1], p[2], 0.05, 40))?;
        let want = crate::support::fd_grad(|q| verlet_state_struct(q[0], q[1], q[2], 0.05, 40), &p);
        crate::support::close("verlet_state_struct", &[dx, dv, dk], &want, 1e-6)?;
    }
    Ok(())
}
