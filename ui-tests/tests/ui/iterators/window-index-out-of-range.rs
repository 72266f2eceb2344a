use autograd::differentiable;

#[differentiable]
fn slope(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for w in x.windows(2) {
        s += w[2] - w[0];
    }
    s
}

fn main() {}
