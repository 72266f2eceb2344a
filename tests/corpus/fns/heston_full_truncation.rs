use autograd::differentiable;

/// Heston model parameters (v0, kappa, theta, xi, rho).
#[derive(Clone, Debug, autograd::Tangent)]
pub struct Heston {
    pub v0: f64,
    pub kappa: f64,
    pub theta: f64,
    pub xi: f64,
    pub rho: f64,
}

/// Log-spot after an Euler full-truncation path with given normals (z1, z2 pairs).
#[differentiable]
pub fn heston_full_truncation(h: &Heston, #[constant] normals: &[(f64, f64)], #[constant] dt: f64) -> f64 {
    let mut v = h.v0;
    let mut log_s = 0.0;
    let sq = (1.0 - h.rho * h.rho).sqrt();
    for &(z1, z2) in normals {
        let v_pos = v.max(0.0);
        let dw_v = z1 * dt.sqrt();
        let dw_s = (h.rho * z1 + sq * z2) * dt.sqrt();
        log_s += -0.5 * v_pos * dt + v_pos.sqrt() * dw_s;
        v += h.kappa * (h.theta - v_pos) * dt + h.xi * v_pos.sqrt() * dw_v;
    }
    log_s
}

pub fn check() -> Result<(), String> {
    let normals = [(0.3, -1.1), (1.2, 0.4), (-0.7, 0.9), (0.1, -0.2), (-1.5, 0.6)];
    for x in [[0.04, 1.5, 0.05, 0.4, -0.6], [0.09, 2.0, 0.06, 0.3, -0.3]] {
        let make = |q: &[f64]| Heston { v0: q[0], kappa: q[1], theta: q[2], xi: q[3], rho: q[4] };
        let (v, d) = heston_full_truncation_grad(&make(&x), &normals, 0.02);
        crate::support::same_value("heston", v, heston_full_truncation(&make(&x), &normals, 0.02))?;
        let want = crate::support::fd_grad(|q| heston_full_truncation(&make(q), &normals, 0.02), &x);
        crate::support::close("heston_full_truncation", &[d.v0, d.kappa, d.theta, d.xi, d.rho], &want, 1e-6)?;
    }
    Ok(())
}
