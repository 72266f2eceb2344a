// A method with `#[differentiable]` on itself alone reading an associated
// constant as `Self::K`: its derivative code is outside the impl block,
// so one error at `Self` saying to write the type's name or annotate the
// block (issue 36).
use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
struct Model {
    a: f64,
}

impl Model {
    const K: f64 = 1.5;

    #[differentiable(jvp, hessian)]
    fn value(&self, x: f64) -> f64 {
        Self::K * self.a * x
    }
}

fn main() {}
