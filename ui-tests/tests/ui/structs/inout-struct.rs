use autograd::differentiable;

#[derive(Clone, autograd::Tangent)]
struct State {
    x: f64,
    v: f64,
}

// A `Tangent` struct is not an in-out argument yet.
#[differentiable]
fn advance(s: &mut State, dt: f64) {
    s.x += dt * s.v;
}

fn main() {}
