//! `#[differentiable(hessian)]` through callees returning several numbers
//! (a `Vec`, an array): a residual vector summed into a loss (Newton on a
//! sum of squares), an ODE right-hand side, and functions generic over
//! their scalar returning `Vec<T>` or `[T; N]` (their `_vjp` and `_jvp`).
//! Hessians against closed forms or central differences of `_grad`
//! (step 1e-6, absolute 1e-6).

// Generic numeric code as it is written: an indexed loop.
#![allow(clippy::needless_range_loop)]

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::num_traits::Float;

/// Residuals of a·e^(−b t) against data.
#[differentiable(hessian)]
fn residuals(p: &[f64], #[constant] t: &[f64], #[constant] y: &[f64]) -> Vec<f64> {
    t.iter()
        .zip(y)
        .map(|(&ti, &yi)| p[0] * (-p[1] * ti).exp() - yi)
        .collect()
}

#[differentiable(hessian)]
fn sum_of_squares(p: &[f64], #[constant] t: &[f64], #[constant] y: &[f64]) -> f64 {
    let r = residuals(p, t, y);
    r.iter().map(|v| v * v).sum()
}

/// The harmonic oscillator's right-hand side.
#[differentiable(hessian)]
fn rhs(s: [f64; 2], k: f64) -> [f64; 2] {
    [s[1], -k * s[0]]
}

#[differentiable(hessian)]
fn squared_force(x: f64, k: f64) -> f64 {
    let d = rhs([x, 0.0], k);
    d[1] * d[1]
}

/// Generic over the scalar, with a `Vec` and an array result.
#[differentiable(jvp, hessian)]
fn scaled<T: Float>(p: &[T], s: T) -> Vec<T> {
    let mut out = Vec::new();
    for i in 0..p.len() {
        out.push(p[i] * s);
    }
    out
}

#[differentiable(jvp)]
fn polar<T: Float>(r: T, a: T) -> [T; 2] {
    [r * a.cos(), r * a.sin()]
}

#[differentiable(hessian)]
fn generic_product<T: Float>(p: &[T], s: T) -> T {
    let q = scaled(p, s);
    q[0] * q[1]
}

const T: [f64; 4] = [0.0, 0.5, 1.0, 2.0];
const Y: [f64; 4] = [1.1, 0.8, 0.6, 0.4];

#[test]
fn newton_on_a_sum_of_squares() {
    let p = [1.0, 0.5];
    let (value, _, h) = sum_of_squares_hessian(&p, &T, &Y);
    assert_eq!(value, sum_of_squares(&p, &T, &Y));
    for j in 0..2 {
        let mut up = p;
        let mut down = p;
        up[j] += 1e-6;
        down[j] -= 1e-6;
        let (gu, gd) = (
            sum_of_squares_grad(&up, &T, &Y).1,
            sum_of_squares_grad(&down, &T, &Y).1,
        );
        for i in 0..2 {
            let fd = (gu[i] - gd[i]) / 2e-6;
            assert!(
                (fd - h[(i, j)]).abs() < 1e-6,
                "H[{i}][{j}] {} against {fd}",
                h[(i, j)]
            );
        }
    }
    // The Gauss–Newton part plus the residual-weighted curvature, closed
    // form: H = 2 Σ (∇rᵢ ∇rᵢᵀ + rᵢ ∇²rᵢ).
    let mut want = [[0.0; 2]; 2];
    for (&t, &y) in T.iter().zip(&Y) {
        let e = (-p[1] * t).exp();
        let r = p[0] * e - y;
        let g = [e, -p[0] * t * e];
        let c = [[0.0, -t * e], [-t * e, p[0] * t * t * e]];
        for i in 0..2 {
            for j in 0..2 {
                want[i][j] += 2.0 * (g[i] * g[j] + r * c[i][j]);
            }
        }
    }
    for i in 0..2 {
        for j in 0..2 {
            assert_relative_eq!(h[(i, j)], want[i][j], max_relative = 1e-13);
        }
    }
}

#[test]
fn an_array_returning_right_hand_side() {
    // (k x)²: H = [[2k², 4kx], [4kx, 2x²]].
    let (x, k) = (1.5, 0.5);
    let (_, _, h) = squared_force_hessian(x, k);
    assert_eq!(h.as_slice(), &[0.5, 3.0, 3.0, 4.5]);
}

#[test]
fn generic_vector_results() {
    let (value, pullback) = scaled_vjp(&[1.0, -2.0], 3.0);
    assert_eq!(value, [3.0, -6.0]);
    let (dp, ds) = pullback(vec![1.0, 0.5]);
    // ds = Σ seedᵢ pᵢ = 1·1 + 0.5·(−2).
    assert_eq!((dp, ds), (vec![3.0, 1.5], 0.0));
    let (value, tangent) = scaled_jvp(&[1.0f32, -2.0], 3.0, &[0.0, 1.0], 1.0);
    assert_eq!(value, [3.0, -6.0]);
    assert_eq!(tangent, [1.0, 1.0]);
    let (value, tangent) = polar_jvp(2.0, 0.5, 0.0, 1.0);
    assert_eq!(value, [2.0 * 0.5f64.cos(), 2.0 * 0.5f64.sin()]);
    assert_eq!(tangent, [-2.0 * 0.5f64.sin(), 2.0 * 0.5f64.cos()]);
    // s² p₀ p₁: H over (p₀, p₁, s).
    let (p, s) = ([1.5, -0.5], 2.0);
    let (_, _, h) = generic_product_hessian(&p, s);
    let want = [
        [0.0, s * s, 2.0 * s * p[1]],
        [s * s, 0.0, 2.0 * s * p[0]],
        [2.0 * s * p[1], 2.0 * s * p[0], 2.0 * p[0] * p[1]],
    ];
    for i in 0..3 {
        for j in 0..3 {
            assert_eq!(h[(i, j)], want[i][j], "H[{i}][{j}]");
        }
    }
    let (_, _, h32) = generic_product_hessian(&[1.5f32, -0.5], 2.0);
    assert_eq!(h32[(0, 1)], 4.0);
}
