use autograd::differentiable;

#[derive(Clone, autograd::Tangent)]
pub struct Poly {
    pub coeffs: Vec<f64>,
    pub scale: f64,
}

#[differentiable]
impl Poly {
    pub fn eval(&self, x: f64) -> f64 {
        let mut acc = 0.0;
        for c in self.coeffs.iter().rev() {
            acc = acc * x + c;
        }
        acc * self.scale
    }

    pub fn fit_loss(&self, #[constant] xs: &[f64], #[constant] ys: &[f64]) -> f64 {
        let mut s = 0.0;
        for (x, y) in xs.iter().zip(ys) {
            let e = self.eval(*x) - y;
            s += e * e;
        }
        s
    }
}

pub fn check() -> Result<(), String> {
    let xs = [0.0, 0.5, 1.0, 1.5];
    let ys = [1.0, 1.4, 2.1, 3.3];
    let p = Poly { coeffs: vec![0.9, 0.3, 0.6], scale: 1.1 };
    let (v, dp) = p.fit_loss_grad(&xs, &ys);
    crate::support::same_value("fit_loss", v, p.fit_loss(&xs, &ys))?;
    let f = |q: &[f64]| Poly { coeffs: q[..3].to_vec(), scale: q[3] }.fit_loss(&xs, &ys);
    let want = crate::support::fd_grad(f, &[0.9, 0.3, 0.6, 1.1]);
    let got = [dp.coeffs[0], dp.coeffs[1], dp.coeffs[2], dp.scale];
    crate::support::close("fit_loss", &got, &want, 1e-6)?;
    Ok(())
}
