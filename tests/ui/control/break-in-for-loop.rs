use autograd::differentiable;

#[differentiable]
fn capped_sum(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for i in 0..x.len() {
        if acc > 10.0 {
            break;
        }
        acc += x[i];
    }
    acc
}

fn main() {}
