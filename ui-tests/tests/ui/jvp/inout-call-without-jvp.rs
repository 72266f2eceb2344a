use autograd::differentiable;

#[differentiable]
fn step(y: &mut [f64], p: f64) {
    for i in 0..y.len() {
        y[i] *= 1.0 + p;
    }
}

// A call passing an in-out argument goes through the callee's forward
// mode, which it has only with `jvp`: one error at the call, as for any
// other call.
#[differentiable(jvp)]
fn stepped(p: f64, xs: &[f64]) -> f64 {
    let mut s = xs.to_vec();
    step(&mut s, p);
    s[0] * s[1]
}

fn main() {}
