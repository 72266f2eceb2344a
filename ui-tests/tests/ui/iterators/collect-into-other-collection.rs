use autograd::differentiable;

#[differentiable]
fn squares_then_sum(x: &[f64]) -> f64 {
    let squares = x.iter().map(|v| v * v).collect::<std::collections::VecDeque<f64>>();
    squares[0]
}

fn main() {}
