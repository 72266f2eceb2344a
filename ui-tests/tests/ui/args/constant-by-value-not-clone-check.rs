// A `#[constant]` argument of a type that is not `Clone`, taken by value:
// the function, `_grad` and `_vjp` take it once and work; `_check` calls
// the function once per component, so calling it asks for `Clone`, at the
// call, in the compiler's own words.
use autograd::differentiable;

struct Once(f64);

#[differentiable]
fn offset_by(x: f64, #[constant] by: Once) -> f64 {
    x * x + by.0
}

fn main() {
    let _ = offset_by_grad(3.0, Once(0.5));
    let _ = offset_by_check(3.0, Once(0.5));
}
