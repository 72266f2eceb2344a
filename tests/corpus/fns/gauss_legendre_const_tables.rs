use autograd::differentiable;

const NODES: [f64; 5] = [-0.906_179_845_938_664, -0.538_469_310_105_683, 0.0, 0.538_469_310_105_683, 0.906_179_845_938_664];
const WEIGHTS: [f64; 5] = [0.236_926_885_056_189, 0.478_628_670_499_366, 0.568_888_888_888_889, 0.478_628_670_499_366, 0.236_926_885_056_189];

/// Integral of a Nelson–Siegel-like forward over [0, t] by 5-point Gauss–Legendre.
#[differentiable]
pub fn gauss_legendre_const_tables(b0: f64, b1: f64, tau: f64, #[constant] t: f64) -> f64 {
    let half = 0.5 * t;
    let mut integral = 0.0;
    for (x, w) in NODES.iter().zip(WEIGHTS.iter()) {
        let s = half * (x + 1.0);
        integral += w * (b0 + b1 * (-s / tau).exp());
    }
    half * integral
}

pub fn check() -> Result<(), String> {
    for p in [[0.03, -0.01, 1.5], [0.05, 0.02, 4.0]] {
        let (v, a, b, c) = gauss_legendre_const_tables_grad(p[0], p[1], p[2], 5.0);
        crate::support::same_value("gl", v, gauss_legendre_const_tables(p[0], p[1], p[2], 5.0))?;
        let want = crate::support::fd_grad(|q| gauss_legendre_const_tables(q[0], q[1], q[2], 5.0), &p);
        crate::support::close("gauss_legendre_const_tables", &[a, b, c], &want, 1e-6)?;
    }
    Ok(())
}
