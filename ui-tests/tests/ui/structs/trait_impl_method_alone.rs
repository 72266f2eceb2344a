// A method of a generic trait impl with `#[differentiable]` on itself
// alone: its generated functions go in an inherent impl of the type, which
// the macro writes for a type without parameters only (a non-generic
// trait impl's method alone is supported: tests/methods_assoc.rs). One
// error at the name, saying what to write.
use autograd::differentiable;
use num_traits::Float;

struct Model<T> {
    w: T,
}

trait Loss<T> {
    fn value(&self, x: T) -> T;
}

impl<T: Float> Loss<T> for Model<T> {
    #[differentiable]
    fn value(&self, x: T) -> T {
        self.w * x * x
    }
}

fn main() {
    let _ = Model { w: 1.0 }.value(2.0);
}
