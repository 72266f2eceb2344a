// An associated function without `self`, `#[differentiable]` on itself
// alone, naming `Self`: one error at `Self` (issue 36).
use autograd::differentiable;

struct Model;

impl Model {
    const K: f64 = 1.5;

    #[differentiable]
    fn value(x: f64) -> f64 {
        Self::K * x
    }
}

fn main() {}
