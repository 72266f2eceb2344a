use autograd::differentiable;

/// GARCH(1,1) parameters.
#[derive(Clone, Debug, autograd::Tangent)]
pub struct Garch {
    pub omega: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[differentiable]
impl Garch {
    /// Next conditional variance.
    #[differentiable]
    pub fn next_var(&self, var: f64, ret: f64) -> f64 {
        self.omega + self.alpha * ret * ret + self.beta * var
    }

    /// Unconditional variance, used to start the recursion.
    #[differentiable]
    pub fn long_run_var(&self) -> f64 {
        self.omega / (1.0 - self.alpha - self.beta)
    }

    /// Gaussian negative log-likelihood of the returns.
    #[differentiable]
    pub fn neg_loglik(&self, #[constant] returns: &[f64]) -> f64 {
        let mut var = self.long_run_var();
        let mut nll = 0.0;
        for &r in returns {
            nll += 0.5 * (var.ln() + r * r / var);
            var = self.next_var(var, r);
        }
        nll
    }
}

pub fn check() -> Result<(), String> {
    let rets = [0.01, -0.02, 0.015, -0.005, 0.03, -0.025, 0.002];
    for x in [[1e-5, 0.08, 0.9], [2e-5, 0.15, 0.8]] {
        let g = Garch { omega: x[0], alpha: x[1], beta: x[2] };
        let (v, d) = g.neg_loglik_grad(&rets);
        crate::support::same_value("garch", v, g.neg_loglik(&rets))?;
        let want = crate::support::fd_grad(|q| Garch { omega: q[0], alpha: q[1], beta: q[2] }.neg_loglik(&rets), &x);
        crate::support::close("garch_impl_struct", &[d.omega, d.alpha, d.beta], &want, 1e-6)?;
    }
    Ok(())
}
