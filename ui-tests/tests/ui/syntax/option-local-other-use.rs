use autograd::differentiable;

fn describe(o: Option<f64>) -> f64 {
    o.unwrap_or(0.0)
}

// An `Option` local is read by `if let`, `match`, `unwrap_or`, `is_some`,
// `is_none` or `let .. else`; passing it on is one error saying so.
#[differentiable]
fn carried(x: &[f64]) -> f64 {
    let mut prev: Option<f64> = None;
    for &v in x {
        prev = Some(v);
    }
    describe(prev) * 2.0
}

fn main() {
    let _ = carried(&[1.0]);
}
