use autograd::differentiable;

#[derive(Clone, autograd::Tangent)]
pub struct Walker {
    pub x: f64,
    pub v: f64,
    pub steps: usize,
}

/// One damped step of a walker that counts its steps.
#[differentiable]
pub fn inout_state_counter(s: &mut Walker, dt: f64) {
    s.v -= 0.3 * s.v * dt + s.x * dt;
    s.x += s.v * dt;
    s.steps += 1;
}

#[differentiable]
pub fn walk(x0: f64, dt: f64) -> f64 {
    let mut s = Walker { x: x0, v: 0.0, steps: 0 };
    for _ in 0..5 {
        inout_state_counter(&mut s, dt);
    }
    s.x * s.steps as f64
}

pub fn check() -> Result<(), String> {
    for (x0, dt) in [(1.0, 0.1), (-0.5, 0.2)] {
        let (v, gx, gdt) = walk_grad(x0, dt);
        crate::support::same_value("walk", v, walk(x0, dt))?;
        let want = crate::support::fd_grad(|q| walk(q[0], q[1]), &[x0, dt]);
        crate::support::close("walk", &[gx, gdt], &want, 1e-6)?;
    }
    Ok(())
}
