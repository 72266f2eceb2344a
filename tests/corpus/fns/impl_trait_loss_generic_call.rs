use autograd::differentiable;

pub trait Loss {
    fn value(&self, pred: f64, y: f64) -> f64;
}

#[derive(Clone, autograd::Tangent)]
pub struct Huber {
    pub delta: f64,
}

#[differentiable]
impl Loss for Huber {
    fn value(&self, pred: f64, y: f64) -> f64 {
        let r = (pred - y).abs();
        if r <= self.delta {
            0.5 * r * r
        } else {
            self.delta * (r - 0.5 * self.delta)
        }
    }
}

/// A trait-impl loss used from a free function on a slice of predictions.
#[differentiable]
pub fn impl_trait_loss_generic_call(h: &Huber, pred: &[f64], #[constant] y: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..pred.len() {
        s += h.value(pred[i], y[i]);
    }
    s
}

pub fn check() -> Result<(), String> {
    let h = Huber { delta: 0.8 };
    let pred = [0.1, 2.0, -0.5];
    let y = [0.3, 0.4, 0.0];
    let (v, dh, dp) = impl_trait_loss_generic_call_grad(&h, &pred, &y);
    crate::support::same_value("huber", v, impl_trait_loss_generic_call(&h, &pred, &y))?;
    let f = |q: &[f64]| impl_trait_loss_generic_call(&Huber { delta: q[0] }, &q[1..], &y);
    let want = crate::support::fd_grad(f, &[0.8, 0.1, 2.0, -0.5]);
    let mut got = vec![dh.delta];
    got.extend(dp);
    crate::support::close("huber", &got, &want, 1e-6)?;
    Ok(())
}
