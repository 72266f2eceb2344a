use autograd::differentiable;

#[derive(Clone, autograd::Tangent)]
struct State {
    x: f64,
    v: f64,
}

#[differentiable]
fn advance(s: &mut State, dt: f64) {
    s.x += dt * s.v;
}

// An in-out struct is not passed to a differentiable callee yet.
#[differentiable]
fn simulate(s: &mut State, dt: f64, n: usize) {
    for _ in 0..n {
        advance(&mut *s, dt);
    }
}

fn main() {}
