// A struct built in the body may have its `#[differentiable]` methods
// called on it; a method without the attribute is one error, at the
// struct.
use autograd::differentiable;

#[derive(Clone, autograd::Tangent)]
struct Model {
    k: f64,
}

impl Model {
    fn value(&self, x: f64) -> f64 {
        self.k * x
    }
}

#[differentiable]
fn total(k: f64, x: f64) -> f64 {
    let m = Model { k };
    m.value(x)
}

fn main() {}
