use autograd::differentiable;

// The stand-ins emitted next to the error take the function's lifetimes:
// the error below is the only one.
#[differentiable]
fn first<'a>(x: &'a [f64], y: &'static [f64]) -> f64 {
    x[0].div_euclid(1.0) + y[0]
}

fn main() {
    let (_value, _dx, _dy) = first_grad(&[1.0], &[2.0]);
}
