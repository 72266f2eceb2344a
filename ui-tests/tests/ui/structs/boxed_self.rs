use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
struct Model {
    a: f64,
}

impl Model {
    // A receiver other than `&self`, `&mut self` or `self`.
    #[differentiable]
    fn f(self: Box<Self>, x: f64) -> f64 {
        self.a * x
    }
}

fn main() {}
