// A `#[constant]` function-pointer argument called in the body: its
// derivative is unknown, and a function of the same name elsewhere must not
// be differentiated in its place.
use autograd::differentiable;

#[differentiable]
fn g(x: f64) -> f64 {
    x * x
}

#[differentiable]
fn f(x: f64, #[constant] g: fn(f64) -> f64) -> f64 {
    g(x) * 2.0
}

fn main() {}
