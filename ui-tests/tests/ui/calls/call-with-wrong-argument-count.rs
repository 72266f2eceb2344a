use autograd::differentiable;

#[differentiable]
fn square(v: f64) -> f64 {
    v * v
}

#[differentiable]
fn too_many(x: f64) -> f64 {
    square(x, x)
}

fn main() {}
