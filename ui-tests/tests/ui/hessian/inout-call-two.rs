use autograd::differentiable;

#[differentiable]
fn step(q: &mut [f64], p: &mut [f64], dt: f64) {
    for i in 0..q.len() {
        p[i] -= dt * q[i];
        q[i] += dt * p[i];
    }
}

// A callee passed in-out arguments from a `hessian` function needs
// `hessian` too: one error at the call, however many it passes.
#[differentiable(hessian)]
fn stepped(dt: f64, xs: &[f64]) -> f64 {
    let mut q = xs.to_vec();
    let mut p = xs.to_vec();
    step(&mut q, &mut p, dt);
    q[0] * p[1]
}

fn main() {}
