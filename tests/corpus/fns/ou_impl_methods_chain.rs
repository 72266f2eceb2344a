use autograd::differentiable;

/// Ornstein–Uhlenbeck parameters.
#[derive(Clone, Debug, autograd::Tangent)]
pub struct Ou {
    pub kappa: f64,
    pub theta: f64,
    pub sigma: f64,
}

#[differentiable]
impl Ou {
    #[differentiable]
    fn decay(&self, dt: f64) -> f64 {
        (-self.kappa * dt).exp()
    }

    #[differentiable]
    fn cond_mean(&self, x: f64, dt: f64) -> f64 {
        self.theta + (x - self.theta) * self.decay(dt)
    }

    #[differentiable]
    fn cond_var(&self, dt: f64) -> f64 {
        let d = self.decay(dt);
        self.sigma * self.sigma * (1.0 - d * d) / (2.0 * self.kappa)
    }

    /// Exact-transition negative log-likelihood of equally spaced observations.
    #[differentiable]
    pub fn neg_loglik(&self, #[constant] xs: &[f64], #[constant] dt: f64) -> f64 {
        let v = self.cond_var(dt);
        let mut nll = 0.0;
        for w in xs.windows(2) {
            let e = w[1] - self.cond_mean(w[0], dt);
            nll += 0.5 * ((2.0 * std::f64::consts::PI * v).ln() + e * e / v);
        }
        nll
    }
}

pub fn check() -> Result<(), String> {
    let xs = [0.03, 0.032, 0.029, 0.027, 0.031, 0.035, 0.033, 0.03];
    for x in [[1.5, 0.03, 0.01], [0.4, 0.025, 0.02]] {
        let ou = Ou { kappa: x[0], theta: x[1], sigma: x[2] };
        let (v, d) = ou.neg_loglik_grad(&xs, 1.0 / 12.0);
        crate::support::same_value("ou", v, ou.neg_loglik(&xs, 1.0 / 12.0))?;
        let want = crate::support::fd_grad(|q| Ou { kappa: q[0], theta: q[1], sigma: q[2] }.neg_loglik(&xs, 1.0 / 12.0), &x);
        crate::support::close("ou_impl_methods_chain", &[d.kappa, d.theta, d.sigma], &want, 1e-6)?;
    }
    Ok(())
}
