use autograd::differentiable;

#[differentiable]
fn piecewise(x: f64, n: i32) -> f64 {
    match n {
        0 => x,
        _ => x * x,
    }
}

fn main() {}
