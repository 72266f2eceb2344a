use autograd::differentiable;

#[derive(Clone)]
struct Params {
    rate: f64,
}

#[differentiable]
fn discount(x: f64, p: &Params) -> f64 {
    x * p.rate
}

fn main() {}
