use autograd::differentiable;

// An exit inside an operand, not a whole arm of the statement's value.
#[differentiable]
fn capped(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for i in 0..x.len() {
        acc += x[i] * if x[i] > 0.0 { 1.0 } else { break };
    }
    acc
}

fn main() {}
