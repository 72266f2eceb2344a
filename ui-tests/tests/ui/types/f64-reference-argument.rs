use autograd::differentiable;

#[differentiable]
fn square(x: &f64) -> f64 {
    *x * *x
}

fn main() {}
