use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
struct Model {
    a: f64,
}

impl Model {
    fn scale(&self) -> f64 {
        self.a
    }

    #[differentiable]
    fn f(&self, x: f64) -> f64 {
        self.scale() * x
    }
}

fn main() {}
