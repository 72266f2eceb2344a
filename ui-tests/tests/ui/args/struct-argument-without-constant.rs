use autograd::differentiable;

#[derive(Clone, Copy)]
struct Params {
    rate: f64,
}

#[differentiable]
fn discount(x: f64, _p: Params) -> f64 {
    x * 2.0
}

fn main() {
    let _ = Params { rate: 0.5 }.rate;
}
