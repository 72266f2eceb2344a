use autograd::differentiable;

#[differentiable]
fn double(x: f64) -> f64 {
    x * 2
}

fn main() {}
