// A pattern binding inside a condition must not be confused with the
// variable of the same name outside it.
use autograd::differentiable;

#[differentiable]
fn f(x: f64) -> f64 {
    let t = 3.0 * x;
    if (match x { t => t }) > 1.0 { t } else { 2.0 * t }
}

fn main() {}
