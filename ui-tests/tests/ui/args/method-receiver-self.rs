use autograd::differentiable;

struct Model {
    weight: f64,
}

impl Model {
    #[differentiable]
    fn predict(&self, x: f64) -> f64 {
        x * 2.0
    }
}

fn main() {
    let _ = Model { weight: 1.0 }.weight;
}
