use autograd::differentiable;

// An `Option` local's methods other than `unwrap_or`, `is_some` and
// `is_none` are one error at the local saying what to write.
#[differentiable]
fn doubled_last(x: &[f64]) -> f64 {
    let mut last: Option<f64> = None;
    for &v in x {
        last = Some(v);
    }
    last.map(|p| p * 2.0).unwrap_or(0.0)
}

fn main() {
    let _ = doubled_last(&[1.0]);
}
