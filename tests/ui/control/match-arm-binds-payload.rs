use autograd::differentiable;

#[differentiable]
fn or_default(x: f64, #[constant] scale: Option<f64>) -> f64 {
    match scale {
        Some(s) => s * x,
        None => x,
    }
}

fn main() {}
