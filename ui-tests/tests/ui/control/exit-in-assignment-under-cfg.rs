use autograd::differentiable;

// The exit statement would not carry the attribute: the assignment is
// left as written, and its `continue` is an exit inside an expression.
#[differentiable]
fn positive_sum(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for i in 0..x.len() {
        #[cfg(debug_assertions)]
        acc += if x[i] > 0.0 { x[i] } else { continue };
    }
    acc
}

fn main() {}
