use autograd::differentiable;

// An arg-max through `enumerate()` destructured: the error names the
// integer search and the read by index to write instead.
#[differentiable]
fn weighted_top(x: &[f64]) -> f64 {
    let (i, &top) = x
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.partial_cmp(b.1).unwrap())
        .unwrap();
    top * (i + 1) as f64
}

fn main() {}
