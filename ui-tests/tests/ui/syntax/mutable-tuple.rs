use autograd::differentiable;

#[differentiable]
fn pair(x: f64, y: f64) -> (f64, f64) {
    (x * y, x + y)
}

// A mutable tuple is bound from a tuple of values (`let mut t = (x, y);`);
// one from a call is one error saying to bind its components.
#[differentiable]
fn swap_sum(x: f64, y: f64) -> f64 {
    let mut t = pair(x, y);
    t.0 *= 2.0;
    t.0 * t.1
}

fn main() {}
