use autograd::differentiable;

/// Consecutive first-order reactions A → B → C integrated with the explicit
/// midpoint rule on a `Vec` state; returns the concentration of B at the end.
#[differentiable]
pub fn reaction_chain_rk2(k1: f64, k2: f64, c0: &[f64], #[constant] dt: f64, #[constant] steps: usize) -> f64 {
    let mut c = c0.to_vec();
    for _ in 0..steps {
        let rate = vec![-k1 * c[0], k1 * c[0] - k2 * c[1], k2 * c[1]];
        let mut mid = c.clone();
        for (m, r) in mid.iter_mut().zip(&rate) {
            *m += 0.5 * dt * r;
        }
        let rate_mid = vec![-k1 * mid[0], k1 * mid[0] - k2 * mid[1], k2 * mid[1]];
        for (ci, r) in c.iter_mut().zip(&rate_mid) {
            *ci += dt * r;
        }
    }
    c[1]
}

pub fn check() -> Result<(), String> {
    for p in [[0.8, 0.3, 1.0, 0.0, 0.0], [2.0, 1.1, 0.7, 0.2, 0.1]] {
        let (v, dk1, dk2, dc0) = reaction_chain_rk2_grad(p[0], p[1], &p[2..], 0.05, 40);
        crate::support::same_value("reaction", v, reaction_chain_rk2(p[0], p[1], &p[2..], 0.05, 40))?;
        let want = crate::support::fd_grad(|q| reaction_chain_rk2(q[0], q[1], &q[2..], 0.05, 40), &p);
        let mut got = vec![dk1, dk2];
        got.extend(dc0);
        crate::support::close("reaction_chain_rk2", &got, &want, 1e-6)?;
    }
    Ok(())
}
