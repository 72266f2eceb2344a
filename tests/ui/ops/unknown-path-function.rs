use autograd::differentiable;

#[differentiable]
fn log_one_plus(x: f64) -> f64 {
    f64::ln_1p(x)
}

fn main() {}
