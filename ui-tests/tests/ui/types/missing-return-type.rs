use autograd::differentiable;

#[differentiable]
fn nothing(x: f64) {
    let _ = x * 2.0;
}

fn main() {}
