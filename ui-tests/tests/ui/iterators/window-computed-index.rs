use autograd::differentiable;

#[differentiable]
fn slope(x: &[f64], k: usize) -> f64 {
    let mut s = 0.0;
    for w in x.windows(2) {
        s += w[k];
    }
    s
}

fn main() {}
