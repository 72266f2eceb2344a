use autograd::differentiable;

#[derive(Clone, autograd::Tangent)]
struct State {
    x: f64,
    steps: usize,
}

// An integer field of an in-out struct is not written yet.
#[differentiable]
fn advance(s: &mut State, dt: f64) {
    s.x += dt;
    s.steps += 1;
}

fn main() {}
