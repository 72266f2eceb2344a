use autograd::differentiable;
use libm::*;

// `erf` comes from a glob the macro cannot read: the generated code checks
// that it is `autograd::special::erf`, and it is not.
#[differentiable]
fn f(x: f64) -> f64 {
    erf(x) * 2.0
}

fn main() {
    let _ = f(0.3);
}
