//! `sum::<S>()` where `S` is the scalar of a generic function, or of a
//! second-order twin (whose scalar is a type parameter): the sum starts
//! from the scalar's zero, not the integer `0` it once started from (a
//! compile error naming the twin's hidden type parameter, found by the
//! random-program generator). Expected values are closed forms of
//! polynomials in small dyadic numbers, exact in binary: compared with
//! `assert_eq!`.

use autograd::differentiable;
use num_traits::Float;

/// a·Σx: ∂x_i = a, ∂a = Σx; Hessian: ∂²/∂x_i∂a = 1, every other entry 0.
#[differentiable(hessian)]
fn scaled_sum(x: &[f64], a: f64) -> f64 {
    x.iter().map(|v| v * a).sum::<f64>()
}

/// a²·Σx: ∂x_i = a², ∂a = 2a·Σx.
#[differentiable(jvp)]
fn generic_scaled_sum<T: Float + std::iter::Sum>(x: &[T], a: T) -> T {
    x.iter().map(|v| *v * a).sum::<T>() * a
}

#[test]
fn a_turbofish_sum_in_a_hessian_function() {
    let (value, gradient, hessian) = scaled_sum_hessian(&[1.0, 2.0], 3.0);
    assert_eq!(value, 9.0);
    assert_eq!(gradient.as_slice(), &[3.0, 3.0, 3.0]);
    let want = [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [1.0, 1.0, 0.0]];
    for (i, row) in want.iter().enumerate() {
        for (j, h) in row.iter().enumerate() {
            assert_eq!(hessian[(i, j)], *h, "H[{i}][{j}]");
        }
    }
}

#[test]
fn a_turbofish_sum_of_the_generic_scalar() {
    let (value, d_x, d_a) = generic_scaled_sum_grad(&[1.0f32, 2.0], 3.0);
    assert_eq!((value, d_x, d_a), (27.0, vec![9.0, 9.0], 18.0));
    let (value, d_x, d_a) = generic_scaled_sum_grad(&[1.0f64, 2.0], 0.5);
    assert_eq!((value, d_x, d_a), (0.75, vec![0.25, 0.25], 3.0));
    // Along (ẋ, ȧ) = ((1, 0), 1): a²·ẋ₀ + 2a·Σx·ȧ = 9 + 18.
    let (value, tangent) = generic_scaled_sum_jvp(&[1.0f64, 2.0], 3.0, &[1.0, 0.0], 1.0);
    assert_eq!((value, tangent), (27.0, 27.0));
}
