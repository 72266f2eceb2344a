use autograd::differentiable;

#[derive(Clone, Copy)]
struct Params {
    rate: f64,
}

impl Params {
    fn doubled(&self) -> f64 {
        2.0 * self.rate
    }
}

// Fields and methods of a `#[constant]` argument are constants.
#[differentiable]
fn discount(x: f64, #[constant] p: Params) -> f64 {
    x * p.rate + x * x * p.doubled()
}

fn main() {
    let p = Params { rate: 0.5 };
    // x·r + x²·2r at x = 1, r = 0.5: value 1.5, d/dx = r + 4r·x = 2.5.
    assert_eq!(discount_grad(1.0, p), (1.5, 2.5));
}
