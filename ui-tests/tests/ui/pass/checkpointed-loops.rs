// `#[checkpoint]` on `for` and `while` loops of a differentiable body: the
// emitted function compiles on stable Rust without the attribute, and the
// gradient is the closed form.
use autograd::differentiable;

const SNAPSHOTS: usize = 3;

/// x·1.01ⁿ, by repeated multiplication.
#[differentiable]
fn grow(x0: f64, n: usize) -> f64 {
    let mut x = x0;
    #[checkpoint]
    for _ in 0..n {
        x = x * 1.01;
    }
    let mut steps = 0;
    #[checkpoint(snapshots = SNAPSHOTS)]
    while steps < n {
        x = x * 1.01;
        steps += 1;
    }
    x
}

fn main() {
    let (value, dx) = grow_grad(2.0, 50);
    assert_eq!(value, grow(2.0, 50));
    let expected = 1.01_f64.powi(100);
    assert!(
        (dx - expected).abs() <= 1e-12 * expected,
        "{dx} vs {expected}"
    );
}
