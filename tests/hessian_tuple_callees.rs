//! `#[differentiable(hessian)]` through callees returning a tuple of
//! floats (`let (m, v) = stats(x);`, `moments(x, y).1`): a mean and a
//! variance, a tuple of three, a helper generic over its scalar at `f64`
//! and `f32`, a helper called in a loop, an `f32` helper with a constant
//! argument. Hessians and Hessian-vector
//! products against closed forms (relative 1e-12) and against central
//! differences of `_grad` (step 1e-5, absolute 1e-6).

// Generic numeric code as it is written: an indexed loop.
#![allow(clippy::needless_range_loop)]

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::num_traits::Float;

/// The mean and the (population) variance.
#[differentiable(hessian)]
fn stats(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let mut s = 0.0;
    for v in x {
        s += v;
    }
    let m = s / n;
    let mut q = 0.0;
    for v in x {
        q += (v - m) * (v - m);
    }
    (m, q / n)
}

#[differentiable(hessian)]
fn mean_times_variance(x: &[f64]) -> f64 {
    let (m, v) = stats(x);
    m * v
}

/// Three numbers of two arguments.
#[differentiable(hessian)]
fn moments(x: f64, y: f64) -> (f64, f64, f64) {
    (x * y, x.sin(), y.exp())
}

#[differentiable(hessian)]
fn of_three(x: f64, y: f64) -> f64 {
    let (a, b, c) = moments(x, y);
    a * b + c * c
}

/// One component of the call's tuple, read where it is used.
#[differentiable(hessian)]
fn second_of_three(x: f64, y: f64) -> f64 {
    moments(x, y).1 * y
}

/// Generic over the scalar: the mean and the variance.
#[differentiable(hessian)]
fn generic_stats<T: Float>(x: &[T]) -> (T, T) {
    let n = T::from(x.len()).unwrap();
    let mut s = T::zero();
    for i in 0..x.len() {
        s = s + x[i];
    }
    let m = s / n;
    let mut q = T::zero();
    for i in 0..x.len() {
        q = q + (x[i] - m) * (x[i] - m);
    }
    (m, q / n)
}

/// The coefficient of variation, generic.
#[differentiable(hessian)]
fn variation<T: Float>(x: &[T]) -> T {
    let (m, v) = generic_stats(x);
    v.sqrt() / m
}

/// An `f64` function calling the generic helper.
#[differentiable(hessian)]
fn mean_times_variance_via_generic(x: &[f64]) -> f64 {
    let (m, v) = generic_stats(x);
    m * v
}

/// A product and a sum of neighbours.
#[differentiable(hessian)]
fn pair(u: f64, v: f64) -> (f64, f64) {
    (u * v, u + v)
}

/// Σ uᵢ uᵢ₊₁ (uᵢ + uᵢ₊₁): the helper called once per neighbour pair.
#[differentiable(hessian)]
fn chain(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let (p, q) = pair(x[i], x[i + 1]);
        s += p * q;
    }
    s
}

/// The Hessian by central differences of a gradient (step 1e-5).
fn differences(grad: impl Fn(&[f64]) -> Vec<f64>, x: &[f64]) -> Vec<Vec<f64>> {
    let n = x.len();
    let mut h = vec![vec![0.0; n]; n];
    for j in 0..n {
        let (mut up, mut down) = (x.to_vec(), x.to_vec());
        up[j] += 1e-5;
        down[j] -= 1e-5;
        let (gu, gd) = (grad(&up), grad(&down));
        for i in 0..n {
            h[i][j] = (gu[i] - gd[i]) / 2e-5;
        }
    }
    h
}

/// Checks `h` (and `hv`, the product with `v`) against `want`, relative
/// `tolerance`, and `h` against central differences of `grad`.
fn check(
    h: &autograd::nalgebra::DMatrix<f64>,
    want: &[Vec<f64>],
    tolerance: f64,
    grad: impl Fn(&[f64]) -> Vec<f64>,
    x: &[f64],
) {
    let fd = differences(grad, x);
    for i in 0..x.len() {
        for j in 0..x.len() {
            assert_relative_eq!(
                h[(i, j)],
                want[i][j],
                max_relative = tolerance,
                epsilon = 1e-14
            );
            assert!(
                (h[(i, j)] - fd[i][j]).abs() < 1e-6,
                "H[{i}][{j}] {} against central differences {}",
                h[(i, j)],
                fd[i][j]
            );
        }
    }
}

/// H·v from a closed-form Hessian.
fn times(h: &[Vec<f64>], v: &[f64]) -> Vec<f64> {
    h.iter()
        .map(|row| row.iter().zip(v).map(|(a, b)| a * b).sum())
        .collect()
}

/// m·v's Hessian: ∇m = 1/n, ∇v = 2(x − m)/n, ∇²m = 0, ∇²v = 2/n (I − 1/n).
fn mean_times_variance_closed_form(x: &[f64]) -> Vec<Vec<f64>> {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    (0..x.len())
        .map(|i| {
            (0..x.len())
                .map(|j| {
                    let delta = if i == j { 1.0 } else { 0.0 };
                    2.0 * (x[j] - m) / (n * n)
                        + 2.0 * (x[i] - m) / (n * n)
                        + m * 2.0 / n * (delta - 1.0 / n)
                })
                .collect()
        })
        .collect()
}

#[test]
fn a_mean_and_a_variance() {
    let x = [1.0, 2.5, 4.0, -0.5];
    let (value, g, h) = mean_times_variance_hessian(&x);
    assert_eq!(value, mean_times_variance(&x));
    assert_eq!(g.as_slice(), mean_times_variance_grad(&x).1.as_slice());
    let want = mean_times_variance_closed_form(&x);
    check(&h, &want, 1e-12, |x| mean_times_variance_grad(x).1, &x);
    let dir = [0.5, -1.0, 2.0, 0.25];
    let (value, g, hv) = mean_times_variance_hvp(&x, &dir);
    assert_eq!(value, mean_times_variance(&x));
    assert_eq!(g, mean_times_variance_grad(&x).1);
    for (got, want) in hv.iter().zip(times(&want, &dir)) {
        assert_relative_eq!(*got, want, max_relative = 1e-12, epsilon = 1e-14);
    }
}

#[test]
fn a_tuple_of_three() {
    // x y sin x + e^{2y}.
    let (x, y) = (0.7, -0.3);
    let want = vec![
        vec![2.0 * y * x.cos() - x * y * x.sin(), x.sin() + x * x.cos()],
        vec![x.sin() + x * x.cos(), 4.0 * (2.0 * y).exp()],
    ];
    let (value, _, h) = of_three_hessian(x, y);
    assert_eq!(value, of_three(x, y));
    let grad = |p: &[f64]| {
        let (_, gx, gy) = of_three_grad(p[0], p[1]);
        vec![gx, gy]
    };
    check(&h, &want, 1e-12, grad, &[x, y]);
    let (value, gx, gy, hx, hy) = of_three_hvp(x, y, 1.0, -2.0);
    assert_eq!((value, gx, gy), of_three_grad(x, y));
    let hv = times(&want, &[1.0, -2.0]);
    assert_relative_eq!(hx, hv[0], max_relative = 1e-12);
    assert_relative_eq!(hy, hv[1], max_relative = 1e-12);
}

#[test]
fn one_component_of_the_tuple() {
    // y sin x.
    let (x, y) = (0.7, -0.3);
    let want = vec![vec![-y * x.sin(), x.cos()], vec![x.cos(), 0.0]];
    let (value, _, h) = second_of_three_hessian(x, y);
    assert_eq!(value, second_of_three(x, y));
    let grad = |p: &[f64]| {
        let (_, gx, gy) = second_of_three_grad(p[0], p[1]);
        vec![gx, gy]
    };
    check(&h, &want, 1e-12, grad, &[x, y]);
}

#[test]
fn a_generic_helper_at_f64_and_f32() {
    let x = [1.0, 2.5, 4.0, 3.5];
    // √v / m: against central differences of `_grad` at `f64`.
    let (value, g, h) = variation_hessian(&x);
    assert_eq!(value, variation(&x));
    assert_eq!(g.as_slice(), variation_grad(&x).1.as_slice());
    let fd = differences(|x| variation_grad(x).1, &x);
    for i in 0..4 {
        for j in 0..4 {
            assert!(
                (h[(i, j)] - fd[i][j]).abs() < 1e-6,
                "H[{i}][{j}] {} against {}",
                h[(i, j)],
                fd[i][j]
            );
        }
    }
    // At `f32`, against the `f64` Hessian (relative 1e-4).
    let x32 = x.map(|v| v as f32);
    let (value32, _, h32) = variation_hessian(&x32);
    assert_eq!(value32, variation(&x32));
    for i in 0..4 {
        for j in 0..4 {
            assert_relative_eq!(
                f64::from(h32[(i, j)]),
                h[(i, j)],
                max_relative = 1e-4,
                epsilon = 1e-6
            );
        }
    }
    let dir = [1.0f32, 0.0, -1.0, 0.5];
    let (_, _, hv32) = variation_hvp(&x32, &dir);
    for i in 0..4 {
        let want: f64 = (0..4).map(|j| h[(i, j)] * f64::from(dir[j])).sum();
        assert_relative_eq!(
            f64::from(hv32[i]),
            want,
            max_relative = 1e-4,
            epsilon = 1e-6
        );
    }
    // An `f64` caller of the generic helper: the closed form of m·v.
    let (value, _, h) = mean_times_variance_via_generic_hessian(&x);
    assert_eq!(value, mean_times_variance_via_generic(&x));
    let want = mean_times_variance_closed_form(&x);
    check(
        &h,
        &want,
        1e-12,
        |x| mean_times_variance_via_generic_grad(x).1,
        &x,
    );
}

#[test]
fn a_helper_called_in_a_loop() {
    // Σ uᵢ² uᵢ₊₁ + uᵢ uᵢ₊₁²: each pair adds [[2v, 2u + 2v], [2u + 2v, 2u]].
    let x = [0.5, -1.5, 2.0, 1.25, -0.75];
    let n = x.len();
    let mut want = vec![vec![0.0; n]; n];
    for i in 0..n - 1 {
        let (u, v) = (x[i], x[i + 1]);
        want[i][i] += 2.0 * v;
        want[i + 1][i + 1] += 2.0 * u;
        want[i][i + 1] += 2.0 * (u + v);
        want[i + 1][i] += 2.0 * (u + v);
    }
    let (value, _, h) = chain_hessian(&x);
    assert_eq!(value, chain(&x));
    check(&h, &want, 1e-12, |x| chain_grad(x).1, &x);
    let dir = [1.0, 2.0, -1.0, 0.0, 0.5];
    let (_, _, hv) = chain_hvp(&x, &dir);
    for (got, want) in hv.iter().zip(times(&want, &dir)) {
        assert_relative_eq!(*got, want, max_relative = 1e-12, epsilon = 1e-14);
    }
    // Tridiagonal: the sparse Hessian holds the band, each entry the
    // dense one's.
    let coloring = chain_hessian_pattern(&x);
    assert_eq!(coloring.nnz(), 3 * n - 2);
    let (value, _, sparse) = chain_hessian_sparse(&x, &coloring);
    assert_eq!(value, chain(&x));
    for (i, j, &v) in sparse.triplet_iter() {
        assert!(i.abs_diff(j) <= 1, "({i}, {j}) outside the band");
        assert_eq!(v, h[(i, j)], "({i}, {j})");
    }
}

/// Cartesian coordinates, in `f32`, at a constant offset.
#[differentiable(hessian)]
fn polar(r: f32, a: f32, #[constant] shift: f32) -> (f32, f32) {
    (r * a.cos() + shift, r * a.sin())
}

/// x² + y² at no shift: r².
#[differentiable(hessian)]
fn squared_radius(r: f32, a: f32) -> f32 {
    let (x, y) = polar(r, a, 0.0);
    x * x + y * y
}

#[test]
fn an_f32_helper_with_a_constant_argument() {
    // r²: H = [[2, 0], [0, 0]] (the angle's entries vanish up to rounding).
    let (value, _, h) = squared_radius_hessian(1.5, 0.25);
    assert_eq!(value, squared_radius(1.5, 0.25));
    assert_relative_eq!(h[(0, 0)], 2.0, max_relative = 1e-6);
    for (i, j) in [(0, 1), (1, 0), (1, 1)] {
        assert!(h[(i, j)].abs() < 1e-5, "H[{i}][{j}] {}", h[(i, j)]);
    }
}
