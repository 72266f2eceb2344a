use autograd::differentiable;

/// Potential energy of a chain of springs between consecutive masses,
/// plus gravity, positions given as (x, y) pairs.
#[differentiable]
pub fn spring_chain(positions: &[f64], #[constant] rest: f64, #[constant] k: f64) -> f64 {
    let n = positions.len() / 2;
    let point = |i: usize| (positions[2 * i], positions[2 * i + 1]);
    let mut energy = 0.0;
    for i in 0..n - 1 {
        let (x0, y0) = point(i);
        let (x1, y1) = point(i + 1);
        let len = ((x1 - x0).powi(2) + (y1 - y0).powi(2)).sqrt();
        energy += 0.5 * k * (len - rest).powi(2);
    }
    for i in 0..n {
        energy += 9.81 * positions[2 * i + 1];
    }
    energy
}

pub fn check() -> Result<(), String> {
    let x = vec![0.0, 0.0, 1.1, -0.2, 2.0, -0.5, 3.2, -0.4];
    let (v, g) = spring_chain_grad(&x, 1.0, 50.0);
    crate::support::same_value("spring", v, spring_chain(&x, 1.0, 50.0))?;
    let want = crate::support::fd_grad(|q| spring_chain(q, 1.0, 50.0), &x);
    crate::support::close("spring_chain", &g, &want, 1e-6)
}
