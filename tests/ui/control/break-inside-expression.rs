use autograd::differentiable;

#[differentiable]
fn capped(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for i in 0..x.len() {
        acc += if x[i] > 0.0 { x[i] } else { break };
    }
    acc
}

fn main() {}
