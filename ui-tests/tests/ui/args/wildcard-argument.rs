use autograd::differentiable;

#[differentiable]
fn ignore_second(x: f64, _: f64) -> f64 {
    x * x
}

fn main() {}
