use autograd::differentiable;

// `chunks_exact` starts an iterator the macro does not lower: the iterator
// error, naming the supported methods, not the float-method one.
#[differentiable]
fn pair_lengths(xy: &[f64]) -> f64 {
    xy.chunks_exact(2).map(|p| p[0].hypot(p[1])).sum()
}

fn main() {
    let _ = pair_lengths(&[3.0, 4.0]);
}
