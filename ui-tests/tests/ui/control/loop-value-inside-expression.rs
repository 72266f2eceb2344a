use autograd::differentiable;

#[differentiable]
fn grown(x: f64) -> f64 {
    let mut y = x;
    let r = 1.0
        + loop {
            y = y * 2.0;
            if y > 10.0 {
                break y;
            }
        };
    r
}

fn main() {}
