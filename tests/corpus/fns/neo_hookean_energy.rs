use autograd::differentiable;
use nalgebra::Matrix3;

/// Compressible neo-Hookean strain energy density of a deformation gradient
/// F: μ/2 (tr FᵀF − 3) − μ ln J + λ/2 (ln J)², J = det F.
#[differentiable]
pub fn neo_hookean_energy(f: Matrix3<f64>, mu: f64, lambda: f64) -> f64 {
    let c = f.transpose() * f;
    let j = f.determinant();
    let ln_j = j.ln();
    0.5 * mu * (c.trace() - 3.0) - mu * ln_j + 0.5 * lambda * ln_j * ln_j
}

pub fn check() -> Result<(), String> {
    for p in [
        [1.1, 0.05, -0.02, 0.1, 0.95, 0.03, 0.0, -0.04, 1.02, 1.5, 4.0],
        [0.9, 0.2, 0.1, -0.1, 1.2, 0.0, 0.05, 0.1, 0.8, 0.8, 10.0],
    ] {
        let f = Matrix3::from_column_slice(&p[..9]);
        let (v, df, dmu, dlambda) = neo_hookean_energy_grad(f, p[9], p[10]);
        crate::support::same_value("neo_hookean", v, neo_hookean_energy(f, p[9], p[10]))?;
        let want = crate::support::fd_grad(|q| neo_hookean_energy(Matrix3::from_column_slice(&q[..9]), q[9], q[10]), &p);
        let mut got: Vec<f64> = df.iter().copied().collect();
        got.push(dmu);
        got.push(dlambda);
        crate::support::close("neo_hookean_energy", &got, &want, 1e-6)?;
    }
    Ok(())
}
