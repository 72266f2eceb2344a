// A method of the user's own trait that happens to be called `relu` is not
// autograd's `relu`: differentiating it with autograd's rule would be wrong.
use autograd::differentiable;

trait Leaky {
    fn relu(self) -> Self;
}

impl Leaky for f64 {
    fn relu(self) -> f64 {
        if self > 0.0 { self } else { 0.01 * self }
    }
}

#[differentiable]
fn f(x: f64) -> f64 {
    x.relu() * 2.0
}

fn main() {}
