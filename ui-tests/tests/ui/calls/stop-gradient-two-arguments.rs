use autograd::differentiable;

#[differentiable]
fn frozen(x: f64, y: f64) -> f64 {
    autograd::stop_gradient(x, y) * x
}

fn main() {}
