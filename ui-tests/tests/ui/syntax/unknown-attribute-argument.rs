use autograd::differentiable;

#[differentiable(foo)]
fn square(x: f64) -> f64 {
    x * x
}

fn main() {}
