use autograd::differentiable;

// The `Option` of `first()` is taken apart where it is written: held in a
// variable, it is one error at the call saying what to write.
#[differentiable]
fn relative_move(prices: &[f64], scale: f64) -> f64 {
    let head = prices.first();
    let base = if let Some(v) = head { *v } else { 1.0 };
    prices.iter().map(|p| (p / base - 1.0) * scale).sum()
}

fn main() {
    let _ = relative_move(&[1.0, 2.0], 0.5);
}
