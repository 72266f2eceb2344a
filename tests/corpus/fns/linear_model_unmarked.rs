use autograd::differentiable;

#[derive(Clone, Debug, autograd::Tangent)]
pub struct Ridge {
    pub w: Vec<f64>,
    pub b: f64,
    #[constant]
    pub lambda: f64,
}

/// A model whose methods carry no attribute of their own: the block's.
#[differentiable]
impl Ridge {
    pub fn new(w: Vec<f64>, b: f64, lambda: f64) -> Self {
        Ridge { w, b, lambda }
    }

    fn predict(&self, x: &[f64]) -> f64 {
        self.w.iter().zip(x).map(|(w, x)| w * x).sum::<f64>() + self.b
    }

    pub fn loss(&self, #[constant] xs: &[Vec<f64>], #[constant] ys: &[f64]) -> f64 {
        let mut l = 0.0;
        for (x, &y) in xs.iter().zip(ys) {
            let e = self.predict(x) - y;
            l += e * e;
        }
        l / ys.len() as f64 + self.lambda * self.w.iter().map(|w| w * w).sum::<f64>()
    }
}

pub fn check() -> Result<(), String> {
    let xs = vec![vec![1.0, 2.0], vec![0.5, -1.0], vec![-0.3, 0.4]];
    let ys = [0.3, 0.7, -0.1];
    for p in [[0.5, -0.2, 0.1], [1.5, 0.3, -0.4]] {
        let m = Ridge::new(vec![p[0], p[1]], p[2], 0.01);
        let (v, g) = m.loss_grad(&xs, &ys);
        crate::support::same_value("ridge", v, m.loss(&xs, &ys))?;
        let want = crate::support::fd_grad(|q| Ridge::new(vec![q[0], q[1]], q[2], 0.01).loss(&xs, &ys), &p);
        crate::support::close("linear_model_unmarked", &[g.w[0], g.w[1], g.b], &want, 1e-6)?;
    }
    Ok(())
}
