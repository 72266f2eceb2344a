use autograd::differentiable;

#[differentiable]
fn grow(x: &Vec<f64>) -> f64 {
    x.push(1.0);
    x[0]
}

fn main() {}
