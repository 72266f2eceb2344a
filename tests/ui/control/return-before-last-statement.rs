use autograd::differentiable;

#[differentiable]
fn early(x: f64) -> f64 {
    let y = x * 2.0;
    return y;
    x
}

fn main() {}
