use autograd::differentiable;

#[differentiable]
fn step(y: &mut [f64], p: f64) {
    for i in 0..y.len() {
        y[i] *= 1.0 + p;
    }
}

// Second order goes through a call passing an in-out argument when the
// callee has `hessian` too: one error at the call, naming the callee.
#[differentiable(hessian)]
fn stepped(p: f64, xs: &[f64]) -> f64 {
    let mut s = xs.to_vec();
    step(&mut s, p);
    let r = s[0] * s[1];
    r * p
}

fn main() {}
