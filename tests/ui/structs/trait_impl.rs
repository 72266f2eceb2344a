use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
struct Model {
    a: f64,
}

trait Loss {
    fn loss(&self, x: f64) -> f64;
}

#[differentiable]
impl Loss for Model {
    fn loss(&self, x: f64) -> f64 {
        self.a * x
    }
}

fn main() {}
