use autograd::differentiable;

#[differentiable(jvp)]
fn step(x: &mut f64, v: &mut f64, dt: f64) {
    *v -= dt * *x;
    *x += dt * *v;
}

// Forward mode does not go through a call passing in-out arguments yet:
// one error at the call, however many it passes.
#[differentiable(jvp)]
fn stepped(x0: f64, dt: f64) -> f64 {
    let mut x = x0;
    let mut v = 0.0;
    step(&mut x, &mut v, dt);
    x * v
}

fn main() {}
