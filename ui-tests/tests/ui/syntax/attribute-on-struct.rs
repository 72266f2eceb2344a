use autograd::differentiable;

#[differentiable]
struct Point {
    x: f64,
}

fn main() {}
