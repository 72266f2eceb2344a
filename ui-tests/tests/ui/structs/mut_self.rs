use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
struct Model {
    a: f64,
}

impl Model {
    #[differentiable]
    fn f(&mut self, x: f64) -> f64 {
        self.a * x
    }
}

fn main() {}
