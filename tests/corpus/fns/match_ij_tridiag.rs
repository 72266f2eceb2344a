use autograd::differentiable;

/// Energy of a discretised elastic rod, free at the left end, clamped at
/// the right: ½·uᵀKu − load·Σu with the stiffness entries chosen by a
/// `match` on `(i, j)`.
#[differentiable]
pub fn match_ij_tridiag(u: &[f64], stiffness: f64, #[constant] load: f64) -> f64 {
    let n = u.len();
    let mut energy = 0.0;
    for i in 0..n {
        for j in 0..n {
            let k = match (i, j) {
                (0, 0) => stiffness,
                (a, b) if a == b => 2.0 * stiffness,
                (a, b) if a + 1 == b || b + 1 == a => -stiffness,
                _ => 0.0,
            };
            energy += 0.5 * u[i] * k * u[j];
        }
    }
    energy - load * u.iter().sum::<f64>()
}

pub fn check() -> Result<(), String> {
    for (u, k) in [(vec![1.0, 0.8, 0.5, 0.1], 3.0), (vec![-0.2, 0.4, 1.1, 0.7, 0.3], 1.5)] {
        let (v, du, dk) = match_ij_tridiag_grad(&u, k, 0.25);
        crate::support::same_value("rod", v, match_ij_tridiag(&u, k, 0.25))?;
        let n = u.len();
        let mut p = u.clone();
        p.push(k);
        let want = crate::support::fd_grad(|q| match_ij_tridiag(&q[..n], q[n], 0.25), &p);
        let mut got = du.clone();
        got.push(dk);
        crate::support::close("match_ij_tridiag", &got, &want, 1e-6)?;
    }
    Ok(())
}
