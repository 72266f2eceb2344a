use autograd::differentiable;

#[differentiable(jvp)]
fn step(y: &mut [f64], p: f64) {
    for i in 0..y.len() {
        y[i] *= 1.0 + p;
    }
}

// Forward mode does not go through a call passing an in-out argument yet,
// its result read or not: one error at the call.
#[differentiable(jvp)]
fn stepped(p: f64, xs: &[f64]) -> f64 {
    let mut s = xs.to_vec();
    step(&mut s, p);
    s[0] * s[1]
}

fn main() {}
