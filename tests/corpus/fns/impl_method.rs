use autograd::differentiable;

#[derive(Clone, Debug, autograd::Tangent)]
pub struct Cir {
    pub kappa: f64,
    pub theta: f64,
    pub sigma: f64,
}

impl Cir {
    /// Expected short rate at horizon t under CIR.
    #[differentiable]
    pub fn expected_rate(&self, r0: f64, t: f64) -> f64 {
        let decay = (-self.kappa * t).exp();
        r0 * decay + self.theta * (1.0 - decay) + 0.0 * self.sigma
    }
}

pub fn check() -> Result<(), String> {
    for x in [[0.5, 0.04, 0.1, 0.03, 2.0], [1.2, 0.05, 0.2, 0.01, 0.5]] {
        let m = Cir { kappa: x[0], theta: x[1], sigma: x[2] };
        let (v, dm, dr, dt) = m.expected_rate_grad(x[3], x[4]);
        crate::support::same_value("cir", v, m.expected_rate(x[3], x[4]))?;
        let want = crate::support::fd_grad(|q| Cir { kappa: q[0], theta: q[1], sigma: q[2] }.expected_rate(q[3], q[4]), &x);
        crate::support::close("impl_method", &[dm.kappa, dm.theta, dm.sigma, dr, dt], &want, 1e-6)?;
    }
    Ok(())
}
