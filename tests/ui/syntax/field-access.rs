use autograd::differentiable;

#[derive(Clone, Copy)]
struct Params {
    rate: f64,
}

#[differentiable]
fn discount(x: f64, #[constant] p: Params) -> f64 {
    x * p.rate
}

fn main() {
    let _ = discount(1.0, Params { rate: 0.5 });
}
