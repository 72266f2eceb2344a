use autograd::differentiable;

#[differentiable]
fn w(x: f64, y: f64) -> f64 {
    x * y
}

fn w_grad(x: f64, y: f64) -> (f64, f64, f64) {
    (x * y, y, x)
}

fn main() {}
