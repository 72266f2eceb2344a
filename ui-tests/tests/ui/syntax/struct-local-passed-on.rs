// A struct built in the body is used by its fields; passed on whole to a
// function it is one error, at the use.
use autograd::differentiable;

struct State {
    x: f64,
    v: f64,
}

fn energy(s: &State) -> f64 {
    0.5 * s.v * s.v + s.x
}

#[differentiable]
fn total(x: f64, v: f64) -> f64 {
    let s = State { x, v };
    energy(&s) + s.x
}

fn main() {}
