use autograd::differentiable;

/// Morse potential energy of a 1-D cluster, summed over all pairs i < j
/// produced by `flat_map`.
#[differentiable]
pub fn pairwise_flat_map_energy(pos: &[f64], depth: f64, width: f64) -> f64 {
    let n = pos.len();
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .map(|(i, j)| {
            let r = (pos[j] - pos[i]).abs();
            let e = (-width * (r - 1.0)).exp();
            depth * (1.0 - e) * (1.0 - e)
        })
        .sum()
}

pub fn check() -> Result<(), String> {
    for (x, d, w) in [(vec![0.0, 1.1, 1.9, 3.2], 1.0, 1.5), (vec![0.3, -0.8, 2.0], 0.7, 2.2)] {
        let (v, dx, dd, dw) = pairwise_flat_map_energy_grad(&x, d, w);
        crate::support::same_value("morse", v, pairwise_flat_map_energy(&x, d, w))?;
        let mut p = x.clone();
        p.push(d);
        p.push(w);
        let n = x.len();
        let want = crate::support::fd_grad(|q| pairwise_flat_map_energy(&q[..n], q[n], q[n + 1]), &p);
        let mut got = dx.clone();
        got.push(dd);
        got.push(dw);
        crate::support::close("pairwise_flat_map_energy", &got, &want, 1e-6)?;
    }
    Ok(())
}
