// A `const` of an inner block named like a module constant read outside
// that block: the generated code declares the body's items once, for the
// whole function, so the outer read would see the inner value (a silently
// wrong number before; now one error at the inner item).
use autograd::differentiable;

const K: f64 = 0.7;

#[differentiable]
fn f(x: f64) -> f64 {
    let y = K * x;
    let z = {
        const K: f64 = 4.0;
        K * x * x
    };
    z + y
}

fn main() {}
