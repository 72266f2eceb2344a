// Forward mode through a local array written by index (once refused with
// "`jvp` does not take local arrays"), and through an array argument and
// result.
use autograd::differentiable;

#[differentiable(jvp)]
fn smooth(x: f64) -> f64 {
    let mut v = [0.0; 2];
    v[0] = x.sin();
    v[1] = v[0] * x;
    v[1]
}

#[differentiable(jvp)]
fn swap_scaled(a: [f64; 2], s: f64) -> [f64; 2] {
    [a[1] * s, a[0]]
}

fn main() {
    // d(x sin x) = sin x + x cos x.
    let x = 0.8f64;
    let (value, dx) = smooth_jvp(x, 1.0);
    assert_eq!(value, smooth(x));
    assert!((dx - (x.sin() + x * x.cos())).abs() < 1e-15);
    let (value, t) = swap_scaled_jvp([2.0, 3.0], 0.5, &[1.0, -1.0], 4.0);
    assert_eq!(value, [1.5, 2.0]);
    // (ȧ₁ s + a₁ ṡ, ȧ₀) = (−0.5 + 12, 1).
    assert_eq!(t, [11.5, 1.0]);
}
