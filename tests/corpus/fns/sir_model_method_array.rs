use autograd::differentiable;

/// SIR epidemic rates.
#[derive(Clone, Debug, autograd::Tangent)]
pub struct Sir {
    pub beta: f64,
    pub gamma: f64,
}

#[differentiable]
impl Sir {
    /// Right-hand side on the state (susceptible, infected, recovered) as fractions.
    #[differentiable]
    fn rhs(&self, s: [f64; 3]) -> [f64; 3] {
        let [sus, inf, _rec] = s;
        let new_inf = self.beta * sus * inf;
        [-new_inf, new_inf - self.gamma * inf, self.gamma * inf]
    }

    /// Squared error of the simulated infected fraction against daily
    /// observations; Euler with `substeps` steps per day.
    #[differentiable]
    pub fn fit_loss(&self, #[constant] i0: f64, #[constant] observed: &[f64], #[constant] substeps: usize) -> f64 {
        let h = 1.0 / substeps as f64;
        let mut s = [1.0 - i0, i0, 0.0];
        let mut loss = 0.0;
        for &obs in observed {
            for _ in 0..substeps {
                let d = self.rhs(s);
                for k in 0..3 {
                    s[k] += h * d[k];
                }
            }
            loss += (s[1] - obs).powi(2);
        }
        loss
    }
}

pub fn check() -> Result<(), String> {
    let observed = [0.012, 0.015, 0.019, 0.024, 0.03, 0.036, 0.043, 0.05];
    for x in [[0.4, 0.15], [0.3, 0.1]] {
        let m = Sir { beta: x[0], gamma: x[1] };
        let (v, d) = m.fit_loss_grad(0.01, &observed, 4);
        crate::support::same_value("sir", v, m.fit_loss(0.01, &observed, 4))?;
        let want = crate::support::fd_grad(|q| Sir { beta: q[0], gamma: q[1] }.fit_loss(0.01, &observed, 4), &x);
        crate::support::close("sir_model_method_array", &[d.beta, d.gamma], &want, 1e-6)?;
    }
    Ok(())
}
