use autograd::differentiable;

#[derive(Clone, autograd::Tangent)]
pub struct Spline {
    pub c0: f64,
    pub c1: f64,
    pub c2: f64,
}

#[differentiable(hessian)]
impl Spline {
    pub fn eval(&self, t: f64) -> f64 {
        self.c0 + t * (self.c1 + t * self.c2)
    }

    pub fn fit(&self, #[constant] ts: &[f64], #[constant] ys: &[f64]) -> f64 {
        let mut s = 0.0;
        for (t, y) in ts.iter().zip(ys) {
            let r = self.eval(*t) - y;
            s += r * r;
        }
        s
    }
}

pub fn generic_method_float_struct(p: &[f64], ts: &[f64], ys: &[f64]) -> f64 {
    Spline { c0: p[0], c1: p[1], c2: p[2] }.fit(ts, ys)
}

pub fn check() -> Result<(), String> {
    let ts = [0.0, 0.5, 1.0, 1.5];
    let ys = [1.0, 1.3, 2.2, 3.1];
    let sp = Spline { c0: 0.9, c1: 0.4, c2: 0.7 };
    let (v, d) = sp.fit_grad(&ts, &ys);
    crate::support::same_value("spline", v, sp.fit(&ts, &ys))?;
    let want = crate::support::fd_grad(|q| generic_method_float_struct(q, &ts, &ys), &[0.9, 0.4, 0.7]);
    crate::support::close("spline", &[d.c0, d.c1, d.c2], &want, 1e-6)?;
    let (_, _, h) = sp.fit_hessian(&ts, &ys);
    // H[0][0] = 2·len, H[0][1] = 2·Σt.
    crate::support::close("spline h", &[h[(0, 0)], h[(0, 1)]], &[8.0, 6.0], 1e-9)?;
    Ok(())
}
