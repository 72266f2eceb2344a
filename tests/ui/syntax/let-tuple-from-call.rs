use autograd::differentiable;

#[differentiable]
fn pair(x: f64) -> f64 {
    x * x
}

#[differentiable]
fn product(x: f64, y: f64) -> f64 {
    let (a, b) = pair_values(x, y);
    a * b + pair(x)
}

fn pair_values(x: f64, y: f64) -> (f64, f64) {
    (x, y)
}

fn main() {}
