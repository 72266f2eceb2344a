use autograd::differentiable;

#[differentiable]
fn square(x: f64) -> f64 {
    let y: f64;
    if x > 0.0 {
        y = x * x;
    } else {
        return 0.0;
    }
    y
}

fn main() {}
