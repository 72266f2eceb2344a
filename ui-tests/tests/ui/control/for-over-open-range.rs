use autograd::differentiable;

#[differentiable]
fn forever(x: f64) -> f64 {
    let mut y = x;
    for _ in 0.. {
        y = y * 0.5;
    }
    y
}

fn main() {}
