use autograd::differentiable;

/// A two-factor Gaussian short-rate model (G2++-like) whose bond price
/// method calls a variance method; the whole block has `hessian`.
#[derive(Clone, Debug, autograd::Tangent)]
pub struct TwoFactor {
    pub a: f64,
    pub b: f64,
    pub sigma: f64,
    pub eta: f64,
}

#[differentiable(hessian)]
impl TwoFactor {
    fn factor_var(k: f64, s: f64, t: f64) -> f64 {
        s * s / (k * k) * (t + 2.0 / k * (-k * t).exp() - 0.5 / k * (-2.0 * k * t).exp() - 1.5 / k)
    }

    pub fn log_bond(&self, t: f64) -> f64 {
        let v = Self::factor_var(self.a, self.sigma, t) + Self::factor_var(self.b, self.eta, t);
        -0.03 * t + 0.5 * v
    }
}

pub fn check() -> Result<(), String> {
    let x = [0.5, 0.1, 0.01, 0.008, 5.0];
    let f = |q: &[f64]| TwoFactor { a: q[0], b: q[1], sigma: q[2], eta: q[3] }.log_bond(q[4]);
    let m = TwoFactor { a: x[0], b: x[1], sigma: x[2], eta: x[3] };
    let (v, dm, dt) = m.log_bond_grad(x[4]);
    crate::support::same_value("g2", v, f(&x))?;
    crate::support::close("impl_block_hessian_methods", &[dm.a, dm.b, dm.sigma, dm.eta, dt], &crate::support::fd_grad(f, &x), 1e-6)?;
    let (hv, _, h) = m.log_bond_hessian(x[4]);
    crate::support::same_value("g2 hessian value", hv, v)?;
    let gf = |q: &[f64]| {
        let (_, d, t) = TwoFactor { a: q[0], b: q[1], sigma: q[2], eta: q[3] }.log_bond_grad(q[4]);
        [d.a, d.b, d.sigma, d.eta, t]
    };
    for i in 0..5 {
        let row: Vec<f64> = (0..5).map(|j| h[(i, j)]).collect();
        crate::support::close(&format!("g2 hessian row {i}"), &row, &crate::support::fd_grad(|q| gf(q)[i], &x), 1e-5)?;
    }
    Ok(())
}
