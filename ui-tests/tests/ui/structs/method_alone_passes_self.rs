// A method with `#[differentiable]` on itself alone passing `self` on
// whole: supported in a `#[differentiable] impl` block (issue 35), one
// error saying so here.
use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
struct Spring {
    stiffness: f64,
}

#[differentiable]
fn energy(s: &Spring, x: f64) -> f64 {
    0.5 * s.stiffness * x * x
}

impl Spring {
    #[differentiable]
    fn loaded(&self, x: f64) -> f64 {
        energy(self, x) - x
    }
}

fn main() {}
