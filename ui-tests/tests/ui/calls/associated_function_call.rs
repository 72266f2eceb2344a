// A free function calling an associated function of a type with an
// argument that carries a derivative: one error at the call's path, saying
// what to write.
use autograd::differentiable;

struct Curve;

impl Curve {
    #[differentiable]
    fn discount(rate: f64, t: f64) -> f64 {
        (-rate * t).exp()
    }
}

#[differentiable]
fn price(rate: f64) -> f64 {
    100.0 * Curve::discount(rate, 2.0)
}

fn main() {
    let _ = price_grad(0.03);
}
