// A method with `#[differentiable]` on itself alone matching a constant
// field of `self`: supported in a `#[differentiable] impl` block (issue
// 35), one error saying so here.
use autograd::{Tangent, differentiable};

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Call,
    Put,
}

#[derive(Clone, Tangent)]
struct Model {
    spot: f64,
    #[constant]
    kind: Kind,
}

impl Model {
    #[differentiable]
    fn payoff(&self, strike: f64) -> f64 {
        match self.kind {
            Kind::Call => self.spot - strike,
            Kind::Put => strike - self.spot,
        }
    }
}

fn main() {}
