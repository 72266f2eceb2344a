use autograd::differentiable;

#[differentiable]
fn wrapped(x: f64) -> f64 {
    f64::div_euclid(x, 2.0)
}

fn main() {}
