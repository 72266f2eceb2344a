use autograd::differentiable;

#[derive(Clone, autograd::Tangent)]
pub struct Curve {
    pub rate: f64,
}

impl Curve {
    // The attribute on the method alone: it cannot name its type, so it
    // gives its callers' forward sweeps nothing to call.
    #[differentiable(jvp)]
    pub fn discount(&self, t: f64) -> f64 {
        (-self.rate * t).exp()
    }
}

#[differentiable(jvp)]
pub fn bond(c: &Curve, coupon: f64) -> f64 {
    coupon * c.discount(1.0) + c.discount(2.0)
}

fn main() {}
