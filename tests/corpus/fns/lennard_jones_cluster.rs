use autograd::differentiable;

/// Lennard-Jones energy of a small cluster, one `[x, y, z]` row per atom,
/// summed over each pair once.
#[differentiable]
pub fn lennard_jones_cluster(pos: &[[f64; 3]], #[constant] epsilon: f64, #[constant] sigma: f64) -> f64 {
    let mut energy = 0.0;
    for i in 0..pos.len() {
        for j in (i + 1)..pos.len() {
            let dx = pos[i][0] - pos[j][0];
            let dy = pos[i][1] - pos[j][1];
            let dz = pos[i][2] - pos[j][2];
            let r2 = dx * dx + dy * dy + dz * dz;
            let sr6 = (sigma * sigma / r2).powi(3);
            energy += 4.0 * epsilon * (sr6 * sr6 - sr6);
        }
    }
    energy
}

pub fn check() -> Result<(), String> {
    for pos in [
        vec![[0.0, 0.0, 0.0], [1.12, 0.0, 0.0], [0.55, 0.97, 0.0], [0.5, 0.35, 0.9]],
        vec![[0.1, -0.2, 0.0], [1.3, 0.1, 0.2], [0.4, 1.2, -0.1]],
    ] {
        let (v, g) = lennard_jones_cluster_grad(&pos, 1.0, 1.0);
        crate::support::same_value("lj", v, lennard_jones_cluster(&pos, 1.0, 1.0))?;
        let flat: Vec<f64> = pos.iter().flat_map(|r| r.iter().copied()).collect();
        let unflat = |q: &[f64]| -> Vec<[f64; 3]> { q.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect() };
        let want = crate::support::fd_grad(|q| lennard_jones_cluster(&unflat(q), 1.0, 1.0), &flat);
        let got: Vec<f64> = g.iter().flat_map(|r| r.iter().copied()).collect();
        crate::support::close("lennard_jones_cluster", &got, &want, 1e-6)?;
    }
    Ok(())
}
