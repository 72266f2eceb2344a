use autograd::differentiable;

// An arm on `x.first()` of a differentiable slice is `Some(v)`, `Some(&v)`,
// `Some(_)`, `None` or `_`, with a guard if wanted: a range in the pattern is
// one error at the call, saying what to write (`Some(&v) if v <= 1.0`).
#[differentiable]
fn head_scaled(x: &[f64]) -> f64 {
    match x.first() {
        Some(&(0.0..=1.0)) => 2.0 * x[0],
        Some(&v) => v,
        None => 0.0,
    }
}

fn main() {
    let _ = head_scaled(&[0.5]);
}
