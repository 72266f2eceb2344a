// A method of a trait impl with `#[differentiable]` on itself alone: a
// trait impl holds only the trait's items, so the generated functions have
// nowhere to go. One error at the name, saying to mark the block.
use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
struct Model {
    w: f64,
}

trait Loss {
    fn value(&self, x: f64) -> f64;
}

impl Loss for Model {
    #[differentiable]
    fn value(&self, x: f64) -> f64 {
        self.w * x * x
    }
}

fn main() {
    let _ = Model { w: 1.0 }.value(2.0);
}
