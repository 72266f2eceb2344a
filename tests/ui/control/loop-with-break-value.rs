use autograd::differentiable;

#[differentiable]
fn first_above(x: f64) -> f64 {
    let mut y = x;
    let r = loop {
        y = y * 2.0;
        if y > 10.0 {
            break y;
        }
    };
    r
}

fn main() {}
