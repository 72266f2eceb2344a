use autograd::differentiable;

#[differentiable]
fn wrapped(x: f64) -> f64 {
    f64::rem_euclid(x, 2.0)
}

fn main() {}
