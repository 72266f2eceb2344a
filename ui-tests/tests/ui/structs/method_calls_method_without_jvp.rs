use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
struct Layer {
    b: f64,
}

#[differentiable]
impl Layer {
    #[differentiable]
    fn pre(&self, x: f64) -> f64 {
        self.b + x
    }

    #[differentiable(jvp)]
    fn loss(&self, x: f64) -> f64 {
        self.pre(x).tanh()
    }
}

fn main() {}
