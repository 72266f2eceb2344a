use autograd::{Tangent, differentiable};

// `Tangent` needs `Clone`, which the derive list forgot.
#[derive(Tangent)]
struct Params {
    rate: f64,
    #[constant]
    label: String,
}

#[differentiable]
fn discount(x: f64, p: &Params) -> f64 {
    x * p.rate
}

fn main() {
    let p = Params {
        rate: 0.5,
        label: String::new(),
    };
    let _ = (discount(1.0, &p), p.label);
}
