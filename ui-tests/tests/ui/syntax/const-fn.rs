use autograd::differentiable;

#[differentiable]
const fn double(x: f64) -> f64 {
    x + x
}

fn main() {}
