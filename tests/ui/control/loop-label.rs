use autograd::differentiable;

#[differentiable]
fn doubled(x: f64, n: usize) -> f64 {
    let mut y = x;
    'outer: for _ in 0..n {
        y = y * 2.0;
    }
    y
}

fn main() {}
