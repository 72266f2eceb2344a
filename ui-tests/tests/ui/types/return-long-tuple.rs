use autograd::differentiable;

#[differentiable]
fn powers(x: f64) -> (f64, f64, f64, f64, f64, f64, f64, f64, f64) {
    (x, x, x, x, x, x, x, x, x)
}

fn main() {}
