// A function generic over a length with an in-out argument: one error at
// the length, saying what to write instead.
use autograd::differentiable;

#[differentiable]
fn step<const N: usize>(state: &mut [f64; N], dt: f64) {
    for i in 0..N {
        state[i] += dt * state[i].sin();
    }
}

fn main() {}
