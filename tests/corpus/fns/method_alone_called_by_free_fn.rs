use autograd::differentiable;

#[derive(Clone, autograd::Tangent)]
pub struct Curve {
    pub rate: f64,
    pub slope: f64,
}

impl Curve {
    #[differentiable]
    pub fn discount(&self, t: f64) -> f64 {
        (-(self.rate + self.slope * t) * t).exp()
    }
}

/// A bond priced off a curve whose method alone carries the attribute.
#[differentiable]
pub fn method_alone_called_by_free_fn(c: &Curve, coupon: f64) -> f64 {
    let mut pv = 0.0;
    for i in 1..=4 {
        pv += coupon * c.discount(i as f64);
    }
    pv + c.discount(4.0)
}

pub fn check() -> Result<(), String> {
    let c = Curve { rate: 0.03, slope: 0.002 };
    let (v, dc, dk) = method_alone_called_by_free_fn_grad(&c, 0.05);
    crate::support::same_value("bond", v, method_alone_called_by_free_fn(&c, 0.05))?;
    let f = |q: &[f64]| method_alone_called_by_free_fn(&Curve { rate: q[0], slope: q[1] }, q[2]);
    let want = crate::support::fd_grad(f, &[0.03, 0.002, 0.05]);
    crate::support::close("bond", &[dc.rate, dc.slope, dk], &want, 1e-6)?;
    Ok(())
}
