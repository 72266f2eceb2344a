use autograd::differentiable;

/// A logistic-regression model: weights, a bias and a fixed L2 penalty.
#[derive(Clone, Debug, autograd::Tangent)]
pub struct Logistic {
    pub weights: Vec<f64>,
    pub bias: f64,
    #[constant]
    pub l2: f64,
}

#[differentiable]
impl Logistic {
    #[differentiable]
    pub fn logit(&self, #[constant] row: &[f64]) -> f64 {
        let mut z = self.bias;
        for (w, x) in self.weights.iter().zip(row) {
            z += w * x;
        }
        z
    }

    /// Mean negative log-likelihood plus the penalty.
    #[differentiable]
    pub fn nll(&self, #[constant] xs: &[Vec<f64>], #[constant] ys: &[f64]) -> f64 {
        let mut total = 0.0;
        for i in 0..ys.len() {
            let z = self.logit(&xs[i]);
            // log(1 + e^z) - y z, written stably.
            let softplus = if z > 0.0 { z + (-z).exp().ln_1p() } else { z.exp().ln_1p() };
            total += softplus - ys[i] * z;
        }
        let penalty: f64 = self.weights.iter().map(|w| w * w).sum();
        total / ys.len() as f64 + 0.5 * self.l2 * penalty
    }
}

pub fn check() -> Result<(), String> {
    let xs = vec![vec![0.5, -1.0], vec![1.5, 0.3], vec![-0.2, 0.8], vec![1.0, 1.0]];
    let ys = [1.0, 0.0, 1.0, 0.0];
    for x in [[0.3, -0.4, 0.1], [-1.0, 2.0, 0.5]] {
        let m = Logistic { weights: vec![x[0], x[1]], bias: x[2], l2: 0.1 };
        let (v, dm) = m.nll_grad(&xs, &ys);
        crate::support::same_value("nll", v, m.nll(&xs, &ys))?;
        let want = crate::support::fd_grad(
            |q| Logistic { weights: vec![q[0], q[1]], bias: q[2], l2: 0.1 }.nll(&xs, &ys),
            &x,
        );
        crate::support::close("logistic_model", &[dm.weights[0], dm.weights[1], dm.bias], &want, 1e-6)?;
    }
    Ok(())
}
