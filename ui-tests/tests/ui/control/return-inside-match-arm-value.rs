use autograd::differentiable;

// The `return` is inside an arm's value, not the whole arm.
#[differentiable]
fn scaled(x: f64, k: i64) -> f64 {
    let y = match k {
        0 => 2.0 * if x > 0.0 { x } else { return 0.0 },
        _ => x,
    };
    y * x
}

fn main() {}
