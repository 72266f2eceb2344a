use autograd::differentiable;

/// Σ xᵢ²: adjoint 2x, a `Vec` of the same length.
#[differentiable]
fn sum_of_squares(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for i in 0..x.len() {
        acc += x[i] * x[i];
    }
    acc
}

/// Rosenbrock over a `&Vec<f64>`, indexing by integer expressions.
#[differentiable]
fn rosenbrock(x: &Vec<f64>) -> f64 {
    let mut acc = 0.0;
    for i in 0..x.len() - 1 {
        let a = 1.0 - x[i];
        let b = x[i + 1] - x[i] * x[i];
        acc += a * a + 100.0 * b * b;
    }
    acc
}

/// A dot product of a slice with a reversed copy of another; f32.
#[differentiable]
fn reversed_dot(x: &[f32], y: &[f32]) -> f32 {
    let n = x.len();
    let mut acc = 0.0_f32;
    for i in 0..n {
        acc += x[i] * y[n - 1 - i];
    }
    acc
}

/// A slice and a scalar together.
#[differentiable]
fn scaled_first(x: &[f64], k: f64) -> f64 {
    x[0] * k + x[x.len() - 1]
}

fn main() {
    assert_eq!(
        sum_of_squares_grad(&[1.0, -2.0, 3.0]),
        (14.0, vec![2.0, -4.0, 6.0])
    );
    assert_eq!(sum_of_squares_grad(&[]), (0.0, vec![]));

    // At (1, 1) the minimum: value 0, gradient 0.
    assert_eq!(rosenbrock_grad(&vec![1.0, 1.0]), (0.0, vec![0.0, 0.0]));
    // At (0, 0): 1; gradient (−2, 0).
    assert_eq!(rosenbrock_grad(&vec![0.0, 0.0]), (1.0, vec![-2.0, 0.0]));
    // At (2, 1): (1−2)² + 100·(1−4)² = 901;
    // ∂x0 = −2(1−2) − 400·2·(1−4) = 2402, ∂x1 = 200·(1−4) = −600.
    assert_eq!(
        rosenbrock_grad(&vec![2.0, 1.0]),
        (901.0, vec![2402.0, -600.0])
    );

    let (v, dx, dy) = reversed_dot_grad(&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0]);
    assert_eq!(v, 1.0 * 6.0 + 2.0 * 5.0 + 3.0 * 4.0);
    assert_eq!(dx, vec![6.0_f32, 5.0, 4.0]);
    assert_eq!(dy, vec![3.0_f32, 2.0, 1.0]);

    assert_eq!(
        scaled_first_grad(&[2.0, 7.0, 5.0], 3.0),
        (11.0, vec![3.0, 0.0, 1.0], 2.0)
    );
}
