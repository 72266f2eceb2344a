use approx::assert_relative_eq;
use autograd::differentiable;

const W: [f64; 3] = [0.5, -1.0, 2.0];

/// Σ W[i]·x[i]² over the first three elements, by an iterator chain.
#[differentiable]
fn weighted_squares(x: &[f64]) -> f64 {
    assert!(x.len() >= W.len(), "need {} values", W.len());
    x.iter().zip(W.iter()).map(|(v, w)| w * v * v).sum::<f64>()
}

/// `for` over an iterator and a tuple.
#[differentiable]
fn total(x: &[f64], y: f64) -> f64 {
    let (a, b) = (y, 2.0 * y);
    let mut acc = 0.0;
    for v in x.iter() {
        acc += *v * a;
    }
    acc + b
}

fn main() {
    let x = [1.0, 2.0, 3.0, 4.0];
    let (value, dx) = weighted_squares_grad(&x);
    assert_relative_eq!(value, 0.5 - 4.0 + 18.0, epsilon = 1e-15);
    assert_relative_eq!(dx[0], 1.0, epsilon = 1e-15);
    assert_relative_eq!(dx[1], -4.0, epsilon = 1e-15);
    assert_relative_eq!(dx[2], 12.0, epsilon = 1e-15);
    assert_eq!(dx[3], 0.0);

    let (value, dx, dy) = total_grad(&x, 0.5);
    assert_relative_eq!(value, 10.0 * 0.5 + 1.0, epsilon = 1e-15);
    assert!(dx.iter().all(|d| *d == 0.5));
    assert_relative_eq!(dy, 10.0 + 2.0, epsilon = 1e-15);
}
