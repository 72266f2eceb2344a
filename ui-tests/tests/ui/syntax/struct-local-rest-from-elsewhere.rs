// A struct built in the body is assigned anew with `..` from something
// other than itself: one error at the `..` expression.
use autograd::differentiable;

#[derive(Default)]
struct State {
    x: f64,
    v: f64,
}

#[differentiable]
fn step(x: f64, v: f64) -> f64 {
    let mut s = State { x, v };
    s = State { x: s.x + s.v, ..Default::default() };
    s.x
}

fn main() {}
