use autograd::differentiable;

#[differentiable]
fn first(x: f64) -> f64 {
    x[0]
}

fn main() {}
