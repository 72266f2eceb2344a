use autograd::differentiable;

// The `Option` of `first()` of a local the body builds is taken apart where
// it is written: held in a variable, it is one error at the call saying
// what to write. (Of an argument, `let head = prices.first();` is the call
// where it is read: tests/option_locals.rs.)
#[differentiable]
fn relative_move(prices: &[f64], scale: f64) -> f64 {
    let mut moved = prices.to_vec();
    moved[0] = scale;
    let head = moved.first();
    let base = if let Some(v) = head { *v } else { 1.0 };
    moved.iter().map(|p| (p / base - 1.0) * scale).sum()
}

fn main() {
    let _ = relative_move(&[1.0, 2.0], 0.5);
}
