use autograd::differentiable;

/// Nelson–Siegel–Svensson zero curve; a fit loss calls `zero(&self, t)`
/// through a helper method for each quoted maturity.
#[derive(Clone, Debug, autograd::Tangent)]
pub struct Nss {
    pub b0: f64,
    pub b1: f64,
    pub b2: f64,
    pub b3: f64,
    pub tau1: f64,
    pub tau2: f64,
}

#[differentiable]
impl Nss {
    fn loading(t: f64, tau: f64) -> f64 {
        let x = t / tau;
        (1.0 - (-x).exp()) / x
    }

    pub fn zero(&self, t: f64) -> f64 {
        let l1 = Self::loading(t, self.tau1);
        let l2 = Self::loading(t, self.tau2);
        self.b0 + self.b1 * l1 + self.b2 * (l1 - (-t / self.tau1).exp()) + self.b3 * (l2 - (-t / self.tau2).exp())
    }

    pub fn fit_loss(&self, #[constant] ts: &[f64], #[constant] quotes: &[f64]) -> f64 {
        let mut loss = 0.0;
        for i in 0..ts.len() {
            let e = self.zero(ts[i]) - quotes[i];
            loss += e * e;
        }
        loss
    }
}

pub fn check() -> Result<(), String> {
    let ts = [0.5, 1.0, 2.0, 5.0, 10.0, 30.0];
    let qs = [0.031, 0.033, 0.035, 0.037, 0.039, 0.041];
    let x = [0.04, -0.01, 0.005, 0.01, 1.5, 8.0];
    let m = Nss { b0: x[0], b1: x[1], b2: x[2], b3: x[3], tau1: x[4], tau2: x[5] };
    let (v, dm) = m.fit_loss_grad(&ts, &qs);
    crate::support::same_value("nss", v, m.fit_loss(&ts, &qs))?;
    let want = crate::support::fd_grad(|q| Nss { b0: q[0], b1: q[1], b2: q[2], b3: q[3], tau1: q[4], tau2: q[5] }.fit_loss(&ts, &qs), &x);
    crate::support::close("svensson_curve_methods", &[dm.b0, dm.b1, dm.b2, dm.b3, dm.tau1, dm.tau2], &want, 1e-6)
}
