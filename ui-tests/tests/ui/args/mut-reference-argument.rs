use autograd::differentiable;

// An in-out argument of a type the macro does not take in-out.
#[differentiable]
fn scale(x: &mut (f64, f64), k: f64) -> f64 {
    x.0 * k
}

fn main() {}
