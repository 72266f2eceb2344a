use autograd::differentiable;

#[differentiable]
fn total(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for v in x.iter() {
        acc += *v;
    }
    acc
}

fn main() {}
