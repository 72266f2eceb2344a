use autograd::differentiable;

#[differentiable]
fn square(v: f64) -> f64 {
    v * v
}

#[differentiable]
fn narrow(x: f32) -> f32 {
    square(x)
}

fn main() {}
