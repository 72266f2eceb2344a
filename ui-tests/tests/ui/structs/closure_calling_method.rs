// Issue 35: "closures are not supported" pointed at the attribute on the
// `impl` block when the closure calls another method of the block; the
// error is at the closure.
use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
struct Model {
    a: f64,
}

#[differentiable]
impl Model {
    fn scale(&self, x: f64) -> f64 {
        self.a * x
    }

    fn f(&self, x: f64) -> f64 {
        let pair = (|t: f64| self.scale(t), x);
        pair.1 * self.a
    }
}

fn main() {}
