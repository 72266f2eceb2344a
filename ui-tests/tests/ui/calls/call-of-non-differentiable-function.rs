use autograd::differentiable;

fn helper(v: f64) -> f64 {
    v * v
}

#[differentiable]
fn uses_helper(x: f64) -> f64 {
    let y = x + 1.0;
    helper(y) * 2.0
}

fn main() {
    let _ = uses_helper(1.0);
}
