use autograd::differentiable;

#[differentiable]
fn apply(x: f64) -> f64 {
    (square)(x)
}

#[differentiable]
fn square(v: f64) -> f64 {
    v * v
}

fn main() {}
