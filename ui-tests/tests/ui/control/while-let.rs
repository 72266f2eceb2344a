use autograd::differentiable;

#[differentiable]
fn decay(x: f64, n: u32) -> f64 {
    let mut y = x;
    let mut k = n;
    while let 1.. = k {
        y = y * 0.5;
        k -= 1;
    }
    y
}

fn main() {}
