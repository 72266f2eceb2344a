// A `return` in the closure of `iter_mut().for_each(..)` ends one item, not
// the function: one error saying to write the `for` loop with `continue`.
use autograd::differentiable;

#[differentiable]
fn floor_at_zero(x: &[f64]) -> f64 {
    let mut u = x.to_vec();
    u.iter_mut().for_each(|v| {
        if *v > 0.0 {
            return;
        }
        *v = 0.0;
    });
    u[0] + u[1]
}

fn main() {}
