use autograd::differentiable;

#[differentiable]
fn first(x: &[f64]) -> f64 {
    let r = &x[0];
    *r * 2.0
}

fn main() {}
