use autograd::differentiable;

// The `Option` of a search is taken apart by `unwrap_or`, `let .. else`,
// `if let` or `match`; its other methods are one error saying so.
#[differentiable]
fn pick(x: &[f64]) -> f64 {
    x.iter().position(|&v| v > 1.0).map_or(0.0, |i| x[i])
}

fn main() {
    let _ = pick(&[2.0]);
}
