// Local arrays and `Vec`s written by index, and results of several
// floats: `vec![..]`, `[e; N]`, element writes, a tuple result with its
// `_jacobian`.
use autograd::differentiable;

#[differentiable]
fn sum_of_two(x: f64, y: f64) -> f64 {
    let mut v = vec![x, y];
    v[1] *= x;
    v[0] + v[1]
}

#[differentiable]
fn both(x: f64, y: f64) -> (f64, f64) {
    (x * y, x + y)
}

#[differentiable]
fn stencil(x: [f64; 3]) -> [f64; 3] {
    let mut out = [0.0; 3];
    out[0] = x[1] - x[0];
    out[1] = x[2] - x[0];
    out[2] = x[2] * x[1];
    out
}

fn main() {
    // x + xy: (1 + y, x).
    assert_eq!(sum_of_two_grad(2.0, 3.0), (8.0, 4.0, 2.0));
    let (value, j) = both_jacobian(2.0, 3.0);
    assert_eq!(value, (6.0, 5.0));
    assert_eq!(j, autograd::nalgebra::dmatrix![3.0, 2.0; 1.0, 1.0]);
    let (value, pullback) = stencil_vjp([1.0, 2.0, 4.0]);
    assert_eq!(value, [1.0, 3.0, 8.0]);
    // Seed (1, 1, 1): the Jacobian's column sums, (−2, 1 + x₂, 1 + x₁).
    assert_eq!(pullback([1.0, 1.0, 1.0]), ([-2.0, 5.0, 3.0],));
}
