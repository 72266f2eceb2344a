use autograd::differentiable;

// `max_by` picks an element of a slice; of a mapped chain it is the
// iterator error, naming what is supported.
#[differentiable]
fn largest_square(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).max_by(|a, b| a.total_cmp(b)).unwrap()
}

fn main() {}
