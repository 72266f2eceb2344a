use autograd::differentiable;

#[differentiable]
fn positive_sum(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for i in 0..x.len() {
        if x[i] < 0.0 {
            continue;
        }
        acc += x[i];
    }
    acc
}

fn main() {}
