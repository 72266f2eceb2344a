use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
struct Model {
    a: f64,
}

#[differentiable]
impl Model {
    #[differentiable]
    fn f(&self, x: f64) -> f64 {
        if x > 0.0 { self.f(x - 1.0) } else { self.a }
    }
}

fn main() {}
