use autograd::differentiable;

/// Binary logistic regression on two features.
#[derive(Clone, Debug, autograd::Tangent)]
pub struct LogReg {
    pub w: [f64; 2],
    pub b: f64,
}

#[differentiable]
impl LogReg {
    /// Clipping keeps the log finite.
    const EPS: f64 = 1e-12;

    #[differentiable]
    pub fn score(&self, x0: f64, x1: f64) -> f64 {
        self.w[0] * x0 + self.w[1] * x1 + self.b
    }

    #[differentiable]
    pub fn prob(&self, x0: f64, x1: f64) -> f64 {
        1.0 / (1.0 + (-self.score(x0, x1)).exp())
    }

    /// Mean binary cross-entropy.
    #[differentiable]
    pub fn bce(&self, #[constant] xs: &[[f64; 2]], #[constant] ys: &[f64]) -> f64 {
        let mut loss = 0.0;
        for (x, &y) in xs.iter().zip(ys) {
            let p = self.prob(x[0], x[1]).clamp(Self::EPS, 1.0 - Self::EPS);
            loss -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
        }
        loss / ys.len() as f64
    }
}

pub fn check() -> Result<(), String> {
    let xs = [[0.5, 1.0], [-1.0, 0.3], [2.0, -0.5], [0.1, 0.1]];
    let ys = [1.0, 0.0, 1.0, 0.0];
    for p in [[0.4, -0.2, 0.1], [-1.0, 1.5, 0.3]] {
        let m = LogReg { w: [p[0], p[1]], b: p[2] };
        let (v, d) = m.bce_grad(&xs, &ys);
        crate::support::same_value("bce", v, m.bce(&xs, &ys))?;
        let want = crate::support::fd_grad(|q| LogReg { w: [q[0], q[1]], b: q[2] }.bce(&xs, &ys), &p);
        crate::support::close("logreg_model_assoc_const", &[d.w[0], d.w[1], d.b], &want, 1e-6)?;
    }
    Ok(())
}
