// The function's own in-out argument passed on as it is: the callee's
// signature (update or read) is not seen, so the reborrow must say it.
use autograd::differentiable;

#[differentiable(jvp)]
fn step(y: &mut f64, k: f64) {
    *y *= k;
}

#[differentiable(jvp)]
fn decay(k: f64, y: &mut f64) -> f64 {
    step(y, k);
    *y
}

fn main() {}
