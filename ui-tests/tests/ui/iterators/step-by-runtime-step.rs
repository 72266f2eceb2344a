use autograd::differentiable;

// `step_by` takes a literal step; a step known only at run time is one
// error saying so.
#[differentiable]
fn strided_sum(x: &[f64], k: usize) -> f64 {
    x.iter().step_by(k).map(|v| v * v).sum::<f64>()
}

fn main() {}
