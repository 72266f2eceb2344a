use autograd::differentiable;

/// A lognormal distribution's parameters.
#[derive(Clone, Debug, autograd::Tangent)]
pub struct LogNormal {
    pub mu: f64,
    pub sigma: f64,
}

#[differentiable]
impl LogNormal {
    /// Mean and variance of the distribution.
    #[differentiable]
    pub fn moments(&self) -> (f64, f64) {
        let s2 = self.sigma * self.sigma;
        let mean = (self.mu + 0.5 * s2).exp();
        (mean, (s2.exp() - 1.0) * mean * mean)
    }

    /// Method-of-moments loss against sample moments.
    #[differentiable]
    pub fn moment_loss(&self, #[constant] m: f64, #[constant] v: f64) -> f64 {
        let (mean, var) = self.moments();
        (mean - m).powi(2) + (var - v).powi(2)
    }
}

pub fn check() -> Result<(), String> {
    for x in [[0.1, 0.3], [-0.2, 0.6]] {
        let d = LogNormal { mu: x[0], sigma: x[1] };
        let (val, g) = d.moment_loss_grad(1.2, 0.2);
        crate::support::same_value("mom", val, d.moment_loss(1.2, 0.2))?;
        let want = crate::support::fd_grad(|q| LogNormal { mu: q[0], sigma: q[1] }.moment_loss(1.2, 0.2), &x);
        crate::support::close("method_tuple_moments", &[g.mu, g.sigma], &want, 1e-6)?;
    }
    Ok(())
}
