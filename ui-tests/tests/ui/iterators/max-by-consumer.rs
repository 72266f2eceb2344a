use autograd::differentiable;

// `reduce` folds a slice's values (`x.iter().copied().reduce(f)`); of a
// mapped chain it is the iterator error, naming what is supported.
#[differentiable]
fn largest(x: &[f64]) -> f64 {
    x.iter().copied().map(|v| v * v).fold(f64::MIN, f64::max) + x.iter().map(|v| v * v).reduce(f64::max).unwrap()
}

fn main() {}
