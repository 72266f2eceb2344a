use autograd::differentiable;
use nalgebra::{Matrix2, Vector2};

/// Plane-stress strain energy of a constant-strain triangle (CST) element:
/// reference node coordinates (x, y), nodal displacements u = [u1, v1, u2,
/// v2, u3, v3], Young's modulus E and Poisson's ratio ν. The element area
/// comes from the determinant of the edge matrix.
#[differentiable]
pub fn cst_triangle_strain_energy(x: [f64; 3], y: [f64; 3], u: &[f64], young: f64, #[constant] nu: f64, #[constant] thickness: f64) -> f64 {
    let e1 = Vector2::new(x[1] - x[0], y[1] - y[0]);
    let e2 = Vector2::new(x[2] - x[0], y[2] - y[0]);
    let jac = Matrix2::from_columns(&[e1, e2]);
    let two_area = jac.determinant();
    let area = 0.5 * two_area;

    // Shape-function derivatives: dN_i/dx = b_i / 2A, dN_i/dy = c_i / 2A.
    let b = [y[1] - y[2], y[2] - y[0], y[0] - y[1]];
    let c = [x[2] - x[1], x[0] - x[2], x[1] - x[0]];

    let mut eps_xx = 0.0;
    let mut eps_yy = 0.0;
    let mut gamma_xy = 0.0;
    for i in 0..3 {
        let (ui, vi) = (u[2 * i], u[2 * i + 1]);
        eps_xx += b[i] * ui / two_area;
        eps_yy += c[i] * vi / two_area;
        gamma_xy += (c[i] * ui + b[i] * vi) / two_area;
    }

    let factor = young / (1.0 - nu * nu);
    let s_xx = factor * (eps_xx + nu * eps_yy);
    let s_yy = factor * (nu * eps_xx + eps_yy);
    let s_xy = factor * 0.5 * (1.0 - nu) * gamma_xy;
    0.5 * thickness * area * (s_xx * eps_xx + s_yy * eps_yy + s_xy * gamma_xy)
}

pub fn check() -> Result<(), String> {
    for p in [
        [0.0, 2.0, 0.5, 0.0, 0.2, 1.5, 0.0, 0.0, 0.05, -0.02, 0.01, 0.04, 100.0],
        [0.1, 1.8, 0.9, -0.2, 0.3, 1.1, 0.02, 0.01, -0.03, 0.05, 0.06, -0.01, 70.0],
    ] {
        let (x, y) = ([p[0], p[1], p[2]], [p[3], p[4], p[5]]);
        let u = &p[6..12];
        let (v, dx, dy, du, dyoung) = cst_triangle_strain_energy_grad(x, y, u, p[12], 0.3, 0.5);
        crate::support::same_value("cst", v, cst_triangle_strain_energy(x, y, u, p[12], 0.3, 0.5))?;
        let want = crate::support::fd_grad(
            |q| cst_triangle_strain_energy([q[0], q[1], q[2]], [q[3], q[4], q[5]], &q[6..12], q[12], 0.3, 0.5),
            &p,
        );
        let mut got = vec![dx[0], dx[1], dx[2], dy[0], dy[1], dy[2]];
        got.extend(du.iter().copied());
        got.push(dyoung);
        crate::support::close("cst_triangle_strain_energy", &got, &want, 1e-6)?;
    }
    Ok(())
}
