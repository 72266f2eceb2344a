use autograd::differentiable;

/// Explicit finite-difference steps of the 1-D heat equation; returns the energy.
#[differentiable]
pub fn heat_equation_step(u0: &[f64], alpha: f64) -> f64 {
    let n = u0.len();
    let mut u = u0.to_vec();
    for _ in 0..5 {
        let mut next = vec![0.0; n];
        for i in 1..n - 1 {
            next[i] = u[i] + alpha * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
        }
        u = next;
    }
    u.iter().map(|v| v * v).sum()
}

pub fn check() -> Result<(), String> {
    for (u, a) in [(vec![0.0, 0.5, 1.0, 0.7, 0.2, 0.0], 0.2), (vec![0.1, 0.9, 0.3, 0.4, 0.0], 0.35)] {
        let (v, du, da) = heat_equation_step_grad(&u, a);
        crate::support::same_value("heat", v, heat_equation_step(&u, a))?;
        let n = u.len();
        let mut p = u.clone();
        p.push(a);
        let want = crate::support::fd_grad(|q| heat_equation_step(&q[..n], q[n]), &p);
        let mut got = du;
        got.push(da);
        crate::support::close("heat_equation_step", &got, &want, 1e-6)?;
    }
    Ok(())
}
