use autograd::differentiable;

// The `Option` of `first()` of a local the body builds is taken apart where
// it is tested, also through a variable holding it (tests/first_last_options.rs
// relative_move); any other use of it is one error at the call saying what
// to write.
#[differentiable]
fn relative_move(prices: &[f64], scale: f64) -> f64 {
    let mut moved = prices.to_vec();
    moved[0] = scale;
    let head = moved.first();
    let base = head.map_or(1.0, |v| *v);
    moved.iter().map(|p| (p / base - 1.0) * scale).sum()
}

fn main() {
    let _ = relative_move(&[1.0, 2.0], 0.5);
}
