use autograd::differentiable;
use autograd::special::{norm_cdf, norm_pdf};

/// A normal-model (Bachelier) swaption quote: the model's fields feed the
/// formula through `&self` methods.
#[derive(Clone, Debug, autograd::Tangent)]
pub struct Bachelier {
    pub forward: f64,
    pub normal_vol: f64,
    pub annuity: f64,
}

#[differentiable]
impl Bachelier {
    pub fn stddev(&self, t: f64) -> f64 {
        self.normal_vol * t.sqrt()
    }

    pub fn payer(&self, strike: f64, t: f64) -> f64 {
        let sd = self.stddev(t);
        let d = (self.forward - strike) / sd;
        self.annuity * ((self.forward - strike) * norm_cdf(d) + sd * norm_pdf(d))
    }
}

pub fn check() -> Result<(), String> {
    for x in [[0.03, 0.008, 4.5, 0.032, 2.0], [0.01, 0.012, 9.0, 0.005, 5.0]] {
        let m = Bachelier { forward: x[0], normal_vol: x[1], annuity: x[2] };
        let (v, dm, dk, dt) = m.payer_grad(x[3], x[4]);
        crate::support::same_value("bachelier", v, m.payer(x[3], x[4]))?;
        let want = crate::support::fd_grad(|q| Bachelier { forward: q[0], normal_vol: q[1], annuity: q[2] }.payer(q[3], q[4]), &x);
        crate::support::close("bachelier_impl_methods", &[dm.forward, dm.normal_vol, dm.annuity, dk, dt], &want, 1e-6)?;
    }
    Ok(())
}
