use autograd::differentiable;

struct Model {
    weight: f64,
}

impl Model {
    fn apply(&self, x: f64) -> f64 {
        self.weight * x
    }
}

#[differentiable]
fn predict(x: f64, #[constant] m: &Model) -> f64 {
    m.apply(x)
}

fn main() {
    let m = Model { weight: 2.0 };
    let _ = predict(1.0, &m);
}
