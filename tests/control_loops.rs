//! `#[differentiable]` on loops: `for` over integer ranges (`a..b`,
//! `a..=b`, `(a..b).rev()`, nested, bounds computed at run time), `while`
//! with a primal condition, loop-carried accumulators mutated with
//! `+= -= *= /=`, and integer arithmetic in slice indices.
//!
//! Expected gradients come from closed forms or from central finite
//! differences of the primal (never from the generated code itself); every
//! tolerance is stated next to its assertion.

// A `#[differentiable]` body indexes slices in `for i in a..b` loops (its
// supported iteration form); clippy would rather see iterators.
#![allow(clippy::needless_range_loop)]

use approx::{assert_abs_diff_eq, assert_relative_eq};
use autograd::{central_difference, differentiable};
use proptest::prelude::*;

// ---------------------------------------------------------------------------
// Helpers: references that do not go through the macro.

/// Central finite differences of `f` at `x`, one slice element at a time.
fn fd_slice(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    let mut work = x.to_vec();
    (0..x.len())
        .map(|i| {
            let d = central_difference(
                |xi: f64| {
                    work[i] = xi;
                    f(&work)
                },
                x[i],
            );
            work[i] = x[i];
            d
        })
        .collect()
}

/// Element-wise `|a - b| <= abs + rel · max(|a|, |b|)`, with a message that
/// names the first failing element.
fn assert_close_slices(got: &[f64], expected: &[f64], abs: f64, rel: f64) {
    assert_eq!(got.len(), expected.len(), "adjoint length");
    for (i, (&g, &e)) in got.iter().zip(expected).enumerate() {
        let tol = abs + rel * g.abs().max(e.abs());
        assert!(
            (g - e).abs() <= tol,
            "element {i}: got {g}, expected {e} (|diff| = {}, tol = {tol})",
            (g - e).abs()
        );
    }
}

/// A deterministic, reproducible "random" vector in `[lo, hi)` (an LCG, so
/// the large-n tests need no RNG dependency).
fn lcg_vec(n: usize, seed: u64, lo: f64, hi: f64) -> Vec<f64> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let u = (s >> 11) as f64 / (1u64 << 53) as f64;
            lo + (hi - lo) * u
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Rosenbrock over a slice.

#[differentiable]
fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let a = 1.0 - x[i];
        let b = x[i + 1] - x[i] * x[i];
        s += a * a + 100.0 * b * b;
    }
    s
}

/// ∂/∂x_i of Σ (1 − x_i)² + 100 (x_{i+1} − x_i²)², by hand.
fn rosenbrock_closed_form(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    (0..n)
        .map(|i| {
            let mut g = 0.0;
            if i + 1 < n {
                g += -2.0 * (1.0 - x[i]) - 400.0 * x[i] * (x[i + 1] - x[i] * x[i]);
            }
            if i > 0 {
                g += 200.0 * (x[i] - x[i - 1] * x[i - 1]);
            }
            g
        })
        .collect()
}

fn check_rosenbrock(n: usize, seed: u64) {
    let x = lcg_vec(n, seed, -2.0, 2.0);
    let (value, dx) = rosenbrock_grad(&x);
    assert_eq!(
        value.to_bits(),
        rosenbrock(&x).to_bits(),
        "value is bit-exact"
    );
    assert_eq!(dx.len(), n);
    // Same operations as the closed form up to reassociation: a few ulps of
    // the largest term (|400·x·b| ≲ 400·2·6 here).
    assert_close_slices(&dx, &rosenbrock_closed_form(&x), 1e-11, 1e-12);
}

#[test]
fn rosenbrock_n2_closed_form() {
    check_rosenbrock(2, 1);
    // The minimum: value 0, gradient exactly 0.
    let (value, dx) = rosenbrock_grad(&[1.0, 1.0]);
    assert_eq!(value, 0.0);
    assert_eq!(dx, vec![0.0, 0.0]);
    // A hand-computed point: x = (0, 0) gives f = 1, ∇f = (−2, 0).
    let (value, dx) = rosenbrock_grad(&[0.0, 0.0]);
    assert_eq!(value, 1.0);
    assert_abs_diff_eq!(dx[0], -2.0, epsilon = 1e-15);
    assert_abs_diff_eq!(dx[1], 0.0, epsilon = 1e-15);
}

#[test]
fn rosenbrock_n10_closed_form_and_finite_differences() {
    check_rosenbrock(10, 2);
    let x = lcg_vec(10, 3, -1.5, 1.5);
    let (_, dx) = rosenbrock_grad(&x);
    // Central differences with h = ∛ε·max(1,|x|): truncation O(h²·f''') with
    // f''' ≤ 2400·|x| here, so ~1e-7 absolute.
    assert_close_slices(&dx, &fd_slice(rosenbrock, &x), 1e-6, 1e-7);
    assert!(rosenbrock_check(&x).is_within(1e-6, 1e-7));
}

#[test]
fn rosenbrock_n1000_closed_form() {
    check_rosenbrock(1000, 4);
}

#[test]
fn rosenbrock_vjp_scales_with_seed() {
    let x = lcg_vec(7, 5, -1.0, 1.0);
    let (value, pullback) = rosenbrock_vjp(&x);
    assert_eq!(value.to_bits(), rosenbrock(&x).to_bits());
    let (dx,) = pullback(-2.5);
    let expected: Vec<f64> = rosenbrock_closed_form(&x)
        .iter()
        .map(|g| -2.5 * g)
        .collect();
    assert_close_slices(&dx, &expected, 1e-11, 1e-12);
}

#[differentiable]
fn rosenbrock_f32(x: &[f32]) -> f32 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let a = 1.0 - x[i];
        let b = x[i + 1] - x[i] * x[i];
        s += a * a + 100.0 * b * b;
    }
    s
}

#[test]
fn rosenbrock_f32_matches_f64_closed_form() {
    let x64 = lcg_vec(12, 6, -1.5, 1.5);
    let x: Vec<f32> = x64.iter().map(|&v| v as f32).collect();
    let (value, dx) = rosenbrock_f32_grad(&x);
    assert_eq!(value.to_bits(), rosenbrock_f32(&x).to_bits());
    // Closed form in f64 at the f32-rounded point; f32 arithmetic keeps
    // ~1e-6 relative of terms up to ~2000.
    let xr: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
    let expected = rosenbrock_closed_form(&xr);
    let got: Vec<f64> = dx.iter().map(|&v| f64::from(v)).collect();
    assert_close_slices(&got, &expected, 2e-3, 1e-4);
}

// ---------------------------------------------------------------------------
// Accumulators with `*=` inside the loop.

#[differentiable]
fn discount(rate: f64, n: usize) -> f64 {
    let mut acc = 1.0;
    for _ in 0..n {
        acc *= 1.0 / (1.0 + rate);
    }
    acc
}

#[test]
fn discount_closed_form_and_finite_differences() {
    for &(rate, n) in &[(0.05, 1usize), (0.03, 10), (0.2, 30), (-0.1, 5), (0.01, 0)] {
        let (value, d_rate) = discount_grad(rate, n);
        assert_eq!(value.to_bits(), discount(rate, n).to_bits());
        // d/dr (1+r)^−n = −n (1+r)^−(n+1).
        let closed = -(n as f64) * (1.0 + rate).powi(-(n as i32) - 1);
        assert_relative_eq!(d_rate, closed, epsilon = 1e-14, max_relative = 1e-12);
        let fd = central_difference(|r: f64| discount(r, n), rate);
        assert_relative_eq!(d_rate, fd, epsilon = 1e-9, max_relative = 1e-7);
        assert!(discount_check(rate, n).is_within(1e-9, 1e-7));
    }
}

#[differentiable]
fn discount_f32(rate: f32, n: usize) -> f32 {
    let mut acc = 1.0;
    for _ in 0..n {
        acc *= 1.0 / (1.0 + rate);
    }
    acc
}

#[test]
fn discount_f32_closed_form() {
    let (value, d_rate) = discount_f32_grad(0.05, 12);
    assert_eq!(value.to_bits(), discount_f32(0.05, 12).to_bits());
    let closed = -12.0 * 1.05_f64.powi(-13);
    // f32 round-off over 12 multiplications: ~1e-6 relative.
    assert_relative_eq!(
        f64::from(d_rate),
        closed,
        epsilon = 1e-6,
        max_relative = 1e-5
    );
}

/// Π x_i, accumulated with `*=` from a slice.
#[differentiable]
fn product(x: &[f64]) -> f64 {
    let mut p = 1.0;
    for i in 0..x.len() {
        p *= x[i];
    }
    p
}

#[test]
fn product_closed_form_and_finite_differences() {
    let x = [1.5, -0.5, 2.0, 0.75, -1.25, 3.0];
    let (value, dx) = product_grad(&x);
    assert_eq!(value.to_bits(), product(&x).to_bits());
    // ∂/∂x_i Π x_j = Π_{j≠i} x_j.
    let closed: Vec<f64> = (0..x.len())
        .map(|i| {
            x.iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, v)| v)
                .product()
        })
        .collect();
    assert_close_slices(&dx, &closed, 1e-15, 1e-14);
    assert_close_slices(&dx, &fd_slice(product, &x), 1e-9, 1e-8);
    // A zero element: only its own component survives.
    let z = [2.0, 0.0, 3.0];
    let (v, dz) = product_grad(&z);
    assert_eq!(v, 0.0);
    assert_eq!(dz, vec![0.0, 6.0, 0.0]);
}

/// All four compound assignments on one loop-carried variable.
#[differentiable]
fn compound(x: f64, y: f64, n: usize) -> f64 {
    let mut a = x;
    for _ in 0..n {
        a += y;
        a *= 0.5;
        a -= 0.25 * x;
        a /= 1.0 + y * y;
    }
    a
}

#[test]
fn compound_assignments_against_finite_differences() {
    for &(x, y, n) in &[
        (1.0, 0.5, 1usize),
        (-2.0, 0.3, 4),
        (0.7, -1.2, 9),
        (3.0, 2.0, 0),
    ] {
        let (value, dx, dy) = compound_grad(x, y, n);
        assert_eq!(value.to_bits(), compound(x, y, n).to_bits());
        // a is affine in x: a_n = k^n·x + (stuff), k = 0.5/(1+y²); with
        // c = −0.25/(1+y²): ∂a_n/∂x = k^n + c·(1 − k^n)/(1 − k).
        let k = 0.5 / (1.0 + y * y);
        let c = -0.25 / (1.0 + y * y);
        let kn = k.powi(n as i32);
        let closed_dx = kn + c * (1.0 - kn) / (1.0 - k);
        assert_relative_eq!(dx, closed_dx, epsilon = 1e-14, max_relative = 1e-12);
        let fdx = central_difference(|x: f64| compound(x, y, n), x);
        let fdy = central_difference(|y: f64| compound(x, y, n), y);
        assert_relative_eq!(dx, fdx, epsilon = 1e-9, max_relative = 1e-7);
        assert_relative_eq!(dy, fdy, epsilon = 1e-9, max_relative = 1e-7);
    }
}

// ---------------------------------------------------------------------------
// Newton's iteration for √c in a `while` loop.

#[differentiable]
fn newton_sqrt(c: f64) -> f64 {
    let mut x = 0.5 * (1.0 + c);
    let tol = 1e-12 * c;
    while (x * x - c).abs() > tol {
        x = 0.5 * (x + c / x);
    }
    x
}

#[test]
fn newton_sqrt_against_closed_form_and_finite_differences() {
    for &c in &[0.01, 0.5, 1.0, 2.0, 10.0, 1234.5] {
        let (value, dc) = newton_sqrt_grad(c);
        assert_eq!(value.to_bits(), newton_sqrt(c).to_bits());
        assert_relative_eq!(value, c.sqrt(), epsilon = 0.0, max_relative = 1e-11);
        // The iteration stops at |x² − c| ≤ 1e-12·c, so its derivative
        // matches d√c/dc = 1/(2√c) only to about that: 1e-6 relative.
        assert_relative_eq!(dc, 0.5 / c.sqrt(), epsilon = 0.0, max_relative = 1e-6);
        // The primal is piecewise smooth in c (the trip count can differ
        // between c ± h, moving x by ≤ tol/(2√c)): 1e-5 relative.
        let fd = central_difference(newton_sqrt, c);
        assert_relative_eq!(dc, fd, epsilon = 0.0, max_relative = 1e-5);
    }
}

/// A `while` loop with an integer counter next to a float accumulator.
#[differentiable]
fn halvings(x: f64, n: usize) -> f64 {
    let mut k = 0;
    let mut s = x;
    while k < n {
        s = 0.5 * s + x * x;
        k += 1;
    }
    s
}

#[test]
fn while_with_integer_counter() {
    for &(x, n) in &[(0.3, 0usize), (1.5, 1), (-0.7, 6), (2.0, 20)] {
        let (value, dx) = halvings_grad(x, n);
        assert_eq!(value.to_bits(), halvings(x, n).to_bits());
        // s_n = 2^−n·x + x²·2·(1 − 2^−n), so ds/dx = 2^−n + 4x(1 − 2^−n).
        let p = 0.5_f64.powi(n as i32);
        assert_relative_eq!(
            dx,
            p + 4.0 * x * (1.0 - p),
            epsilon = 1e-14,
            max_relative = 1e-12
        );
    }
}

// ---------------------------------------------------------------------------
// Nested loops: a slice viewed as an n×n matrix, with branches inside.

/// Σ_{i ≤ j} g(x[i·n + j]) with g(v) = v³ for v < 0, (i + 1)·sin v otherwise.
#[differentiable]
fn upper_triangle(x: &[f64], n: usize) -> f64 {
    let mut s = 0.0;
    for i in 0..n {
        for j in 0..n {
            if j >= i {
                let v = x[i * n + j];
                // The `;` works around a macro bug (an `if`/`else`
                // statement in tail position of a block is taken for a
                // value; see `tail_if_else_statement` below).
                if v < 0.0 {
                    s += v * v * v;
                } else {
                    s += (i as f64 + 1.0) * v.sin();
                };
            }
        }
    }
    s
}

fn upper_triangle_closed_form(x: &[f64], n: usize) -> Vec<f64> {
    let mut g = vec![0.0; n * n];
    for i in 0..n {
        for j in i..n {
            let v = x[i * n + j];
            g[i * n + j] = if v < 0.0 {
                3.0 * v * v
            } else {
                (i as f64 + 1.0) * v.cos()
            };
        }
    }
    g
}

#[test]
fn nested_loops_with_branch_closed_form() {
    for &n in &[1usize, 3, 8] {
        let x = lcg_vec(n * n, n as u64, -2.0, 2.0);
        let (value, dx) = upper_triangle_grad(&x, n);
        assert_eq!(value.to_bits(), upper_triangle(&x, n).to_bits());
        assert_close_slices(&dx, &upper_triangle_closed_form(&x, n), 1e-15, 1e-14);
        // Finite differences, away from the kink at 0 (|v| ≥ 1e-3 here).
        if x.iter().all(|v| v.abs() > 1e-3) {
            assert_close_slices(&dx, &fd_slice(|x| upper_triangle(x, n), &x), 1e-8, 1e-7);
        }
    }
}

/// The same sum with the branch as an `if` expression, and the `j ≥ i`
/// test folded into a `&&`.
#[differentiable]
fn upper_triangle_expr(x: &[f64], n: usize) -> f64 {
    let mut s = 0.0;
    for i in 0..n {
        for j in 0..n {
            let v = x[i * n + j];
            s += if j >= i && v < 0.0 {
                v * v * v
            } else if j >= i {
                (i as f64 + 1.0) * v.sin()
            } else {
                0.0
            };
        }
    }
    s
}

#[test]
fn nested_loops_with_if_expression_closed_form() {
    for &n in &[1usize, 4, 7] {
        let x = lcg_vec(n * n, 40 + n as u64, -2.0, 2.0);
        let (value, dx) = upper_triangle_expr_grad(&x, n);
        assert_eq!(value.to_bits(), upper_triangle_expr(&x, n).to_bits());
        // Same function as `upper_triangle`, same closed form, exact
        // per-element formulas: 1e-14 relative.
        assert_close_slices(&dx, &upper_triangle_closed_form(&x, n), 1e-15, 1e-14);
    }
}

/// Σ_i Σ_j x[i]·x[j]·w[i·n + j] for i ≤ j (a quadratic form over the upper
/// triangle), inner bound depending on the outer index.
#[differentiable]
fn triangular_quadratic(x: &[f64], #[constant] w: &[f64]) -> f64 {
    let n = x.len();
    let mut s = 0.0;
    for i in 0..n {
        for j in i..n {
            s += x[i] * x[j] * w[i * n + j];
        }
    }
    s
}

#[test]
fn nested_loop_with_dependent_inner_bound() {
    let n = 6;
    let x = lcg_vec(n, 11, -1.0, 1.0);
    let w = lcg_vec(n * n, 12, -1.0, 1.0);
    let (value, dx) = triangular_quadratic_grad(&x, &w);
    assert_eq!(value.to_bits(), triangular_quadratic(&x, &w).to_bits());
    // ∂/∂x_k = Σ_{j ≥ k} x_j w[k][j] + Σ_{i ≤ k} x_i w[i][k].
    let closed: Vec<f64> = (0..n)
        .map(|k| {
            let a: f64 = (k..n).map(|j| x[j] * w[k * n + j]).sum();
            let b: f64 = (0..=k).map(|i| x[i] * w[i * n + k]).sum();
            a + b
        })
        .collect();
    assert_close_slices(&dx, &closed, 1e-14, 1e-13);
}

// ---------------------------------------------------------------------------
// Range forms: `.rev()`, `..=`, bounds computed at run time, index arithmetic.

/// Horner's rule, highest coefficient first: p = Σ c_i·x^i.
#[differentiable]
fn horner(c: &[f64], x: f64) -> f64 {
    let n = c.len();
    let mut p = 0.0;
    for i in (0..n).rev() {
        p = p * x + c[i];
    }
    p
}

#[test]
fn reversed_range_horner_closed_form() {
    let c = [0.5, -1.0, 2.0, 0.25, -0.75];
    for &x in &[-1.3, 0.0, 0.4, 2.0] {
        let (value, dc, dx) = horner_grad(&c, x);
        assert_eq!(value.to_bits(), horner(&c, x).to_bits());
        let powers: Vec<f64> = (0..c.len()).map(|i| x.powi(i as i32)).collect();
        assert_close_slices(&dc, &powers, 1e-15, 1e-14);
        let dp: f64 = (1..c.len())
            .map(|i| i as f64 * c[i] * x.powi(i as i32 - 1))
            .sum();
        assert_relative_eq!(dx, dp, epsilon = 1e-13, max_relative = 1e-13);
    }
}

/// Σ_{i = lo..=hi} x[i]², bounds from the arguments.
#[differentiable]
fn window_sum_sq(x: &[f64], lo: usize, hi: usize) -> f64 {
    let mut s = 0.0;
    for i in lo..=hi {
        s += x[i] * x[i];
    }
    s
}

#[test]
fn inclusive_range_with_runtime_bounds() {
    let x = [1.0, -2.0, 3.0, 0.5, -0.25, 4.0];
    for &(lo, hi) in &[(0usize, 5usize), (2, 4), (3, 3), (4, 3)] {
        let (value, dx) = window_sum_sq_grad(&x, lo, hi);
        assert_eq!(value.to_bits(), window_sum_sq(&x, lo, hi).to_bits());
        let expected: Vec<f64> = (0..x.len())
            .map(|i| if lo <= i && i <= hi { 2.0 * x[i] } else { 0.0 })
            .collect();
        // Exact: each element is read once and the adjoint is 2·x exactly.
        assert_eq!(dx, expected, "lo = {lo}, hi = {hi}");
    }
}

/// An inclusive reversed range, bounds from `len()`: Σ_{i = 1..=n−1} i·x[i]
/// visited backwards, with a carried scale factor.
#[differentiable]
fn rev_inclusive(x: &[f64], q: f64) -> f64 {
    let mut s = 0.0;
    let mut scale = 1.0;
    for i in (1..=x.len() - 1).rev() {
        s += scale * x[i];
        scale *= q;
    }
    s
}

#[test]
fn reversed_inclusive_range() {
    let x = [9.0, 1.0, 2.0, 3.0, 4.0];
    let q = 0.5;
    let (value, dx, dq) = rev_inclusive_grad(&x, q);
    assert_eq!(value.to_bits(), rev_inclusive(&x, q).to_bits());
    // Visited i = 4, 3, 2, 1 with scale q^0, q^1, q^2, q^3:
    // s = Σ_{i=1}^{4} q^{4−i}·x[i]; ∂s/∂x[i] = q^{4−i}; ∂s/∂q = Σ (4−i)·q^{3−i}·x[i].
    let expected: Vec<f64> = vec![0.0, q * q * q, q * q, q, 1.0];
    assert_eq!(dx, expected);
    let closed_dq = 3.0 * q * q * x[1] + 2.0 * q * x[2] + x[3];
    assert_relative_eq!(dq, closed_dq, epsilon = 1e-15, max_relative = 1e-14);
}

/// Σ x[i]·y[n − 1 − i]: a reversed dot product.
#[differentiable]
fn reversed_dot(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len();
    let mut s = 0.0;
    for i in 0..n {
        s += x[i] * y[n - 1 - i];
    }
    s
}

#[test]
fn index_arithmetic_n_minus_1_minus_i() {
    let x = [1.0, 2.0, 3.0, 4.0];
    let y = [-0.5, 0.25, 2.0, 1.5];
    let (value, dx, dy) = reversed_dot_grad(&x, &y);
    assert_eq!(value.to_bits(), reversed_dot(&x, &y).to_bits());
    let ry: Vec<f64> = y.iter().rev().copied().collect();
    let rx: Vec<f64> = x.iter().rev().copied().collect();
    assert_eq!(dx, ry);
    assert_eq!(dy, rx);
}

/// Total variation squared: Σ (x[i+1] − x[i])², only over the middle of the
/// slice: from `k` to `len − k`.
#[differentiable]
fn trimmed_variation(x: &[f64], k: usize) -> f64 {
    let mut s = 0.0;
    for i in k..x.len() - k - 1 {
        let d = x[i + 1] - x[i];
        s += d * d;
    }
    s
}

#[test]
fn index_arithmetic_i_plus_1_runtime_bounds() {
    let x = lcg_vec(9, 21, -1.0, 1.0);
    for &k in &[0usize, 1, 3, 4] {
        let (value, dx) = trimmed_variation_grad(&x, k);
        assert_eq!(value.to_bits(), trimmed_variation(&x, k).to_bits());
        let mut expected = vec![0.0; x.len()];
        for i in k..x.len() - k - 1 {
            let d = x[i + 1] - x[i];
            expected[i + 1] += 2.0 * d;
            expected[i] -= 2.0 * d;
        }
        assert_close_slices(&dx, &expected, 1e-15, 1e-14);
    }
}

/// The loop runs over the first half (integer division in the bound), and
/// reads a mirrored element with `len − 1 − i`.
#[differentiable]
fn folded(x: &[f64]) -> f64 {
    let n = x.len();
    let mut s = 0.0;
    for i in 0..n / 2 {
        s += x[i] * x[n - 1 - i] - x[i + 1];
    }
    s
}

#[test]
fn integer_division_in_bound() {
    let x = [1.0, -2.0, 3.0, 0.5, 4.0, -1.5, 2.5];
    let n = x.len();
    let (value, dx) = folded_grad(&x);
    assert_eq!(value.to_bits(), folded(&x).to_bits());
    let mut expected = vec![0.0; n];
    for i in 0..n / 2 {
        expected[i] += x[n - 1 - i];
        expected[n - 1 - i] += x[i];
        expected[i + 1] -= 1.0;
    }
    assert_close_slices(&dx, &expected, 1e-15, 0.0);
}

/// `&Vec<f64>` argument, a loop and `return expr` as the last statement.
#[allow(clippy::ptr_arg, clippy::needless_return)]
#[differentiable]
fn vec_mean_square(x: &Vec<f64>, scale: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += x[i] * x[i];
    }
    return scale * s / x.len() as f64;
}

#[test]
fn vec_argument_and_return_statement() {
    let x = vec![1.0, -2.0, 0.5, 3.0];
    let (value, dx, dscale) = vec_mean_square_grad(&x, 2.0);
    assert_eq!(value.to_bits(), vec_mean_square(&x, 2.0).to_bits());
    let n = x.len() as f64;
    let expected: Vec<f64> = x.iter().map(|v| 2.0 * 2.0 * v / n).collect();
    assert_close_slices(&dx, &expected, 1e-15, 1e-15);
    let ms: f64 = x.iter().map(|v| v * v).sum::<f64>() / n;
    assert_relative_eq!(dscale, ms, epsilon = 1e-15, max_relative = 1e-15);
}

/// A loop whose trip count is zero: the adjoint is all zeros and the value
/// is the initial one.
#[test]
fn empty_loops() {
    let (value, dx) = window_sum_sq_grad(&[1.0, 2.0], 1, 0);
    assert_eq!(value, 0.0);
    assert_eq!(dx, vec![0.0, 0.0]);
    let (value, dx) = product_grad(&[]);
    assert_eq!(value, 1.0);
    assert!(dx.is_empty());
    let (value, d_rate) = discount_grad(0.1, 0);
    assert_eq!((value, d_rate), (1.0, 0.0));
}

// ---------------------------------------------------------------------------
// Property tests: gradient against central finite differences of the primal.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn prop_rosenbrock(x in prop::collection::vec(-2.0f64..2.0, 2..12)) {
        let (value, dx) = rosenbrock_grad(&x);
        prop_assert_eq!(value.to_bits(), rosenbrock(&x).to_bits());
        // Closed form: reassociation only, a few ulps of terms ≤ ~5000.
        let closed = rosenbrock_closed_form(&x);
        for (g, e) in dx.iter().zip(&closed) {
            prop_assert!((g - e).abs() <= 1e-11 + 1e-12 * e.abs(), "{} vs {}", g, e);
        }
        // Finite differences: truncation ~h²·f''' ≲ 1e-10·2400·2, plus
        // round-off ε·f/h ≲ 4e-11·4000 ≈ 2e-7: 1e-6 absolute + 1e-7 relative.
        let fd = fd_slice(rosenbrock, &x);
        for (g, e) in dx.iter().zip(&fd) {
            prop_assert!((g - e).abs() <= 1e-6 + 1e-7 * e.abs(), "{} vs fd {}", g, e);
        }
    }

    #[test]
    fn prop_discount(rate in -0.5f64..1.0, n in 0usize..40) {
        let (value, d) = discount_grad(rate, n);
        prop_assert_eq!(value.to_bits(), discount(rate, n).to_bits());
        // (1+r)^−n can reach 2^40; compare relatively (1e-6 for the FD).
        let fd = central_difference(|r: f64| discount(r, n), rate);
        prop_assert!((d - fd).abs() <= 1e-9 + 1e-6 * fd.abs(), "{} vs fd {}", d, fd);
        let closed = -(n as f64) * (1.0 + rate).powi(-(n as i32) - 1);
        prop_assert!((d - closed).abs() <= 1e-12 * closed.abs().max(1.0), "{} vs {}", d, closed);
    }

    #[test]
    fn prop_product(x in prop::collection::vec(-2.0f64..2.0, 0..10)) {
        let (value, dx) = product_grad(&x);
        prop_assert_eq!(value.to_bits(), product(&x).to_bits());
        // Π over ≤ 9 factors of magnitude ≤ 2: |∂| ≤ 512, smooth (multilinear),
        // so the FD is exact up to round-off (~1e-8 relative).
        let fd = fd_slice(product, &x);
        for (g, e) in dx.iter().zip(&fd) {
            prop_assert!((g - e).abs() <= 1e-8 + 1e-7 * e.abs(), "{} vs fd {}", g, e);
        }
    }

    #[test]
    fn prop_compound(x in -3.0f64..3.0, y in -2.0f64..2.0, n in 0usize..12) {
        let (value, dx, dy) = compound_grad(x, y, n);
        prop_assert_eq!(value.to_bits(), compound(x, y, n).to_bits());
        let fdx = central_difference(|x: f64| compound(x, y, n), x);
        let fdy = central_difference(|y: f64| compound(x, y, n), y);
        prop_assert!((dx - fdx).abs() <= 1e-8 + 1e-7 * fdx.abs(), "{} vs fd {}", dx, fdx);
        prop_assert!((dy - fdy).abs() <= 1e-8 + 1e-7 * fdy.abs(), "{} vs fd {}", dy, fdy);
    }

    #[test]
    fn prop_newton_sqrt(c in 0.01f64..1000.0) {
        let (value, dc) = newton_sqrt_grad(c);
        prop_assert_eq!(value.to_bits(), newton_sqrt(c).to_bits());
        // Stopped at |x² − c| ≤ 1e-12·c: 1e-6 relative against 1/(2√c),
        // 1e-5 relative against the FD of the (piecewise smooth) primal.
        let closed = 0.5 / c.sqrt();
        prop_assert!((dc - closed).abs() <= 1e-6 * closed, "{} vs {}", dc, closed);
        let fd = central_difference(newton_sqrt, c);
        prop_assert!((dc - fd).abs() <= 1e-5 * closed, "{} vs fd {}", dc, fd);
    }

    #[test]
    fn prop_upper_triangle(
        n in 1usize..5,
        raw in prop::collection::vec(0.01f64..2.0, 16),
        signs in prop::collection::vec(any::<bool>(), 16),
    ) {
        // |v| ≥ 0.01 keeps every entry off the kink at 0.
        let x: Vec<f64> = (0..n * n)
            .map(|k| if signs[k] { raw[k] } else { -raw[k] })
            .collect();
        let (value, dx) = upper_triangle_grad(&x, n);
        prop_assert_eq!(value.to_bits(), upper_triangle(&x, n).to_bits());
        let fd = fd_slice(|x| upper_triangle(x, n), &x);
        for (g, e) in dx.iter().zip(&fd) {
            prop_assert!((g - e).abs() <= 1e-8 + 1e-7 * e.abs(), "{} vs fd {}", g, e);
        }
    }

    #[test]
    fn prop_upper_triangle_expr(
        n in 1usize..5,
        raw in prop::collection::vec(0.01f64..2.0, 16),
        signs in prop::collection::vec(any::<bool>(), 16),
    ) {
        let x: Vec<f64> = (0..n * n)
            .map(|k| if signs[k] { raw[k] } else { -raw[k] })
            .collect();
        let (value, dx) = upper_triangle_expr_grad(&x, n);
        prop_assert_eq!(value.to_bits(), upper_triangle_expr(&x, n).to_bits());
        let fd = fd_slice(|x| upper_triangle_expr(x, n), &x);
        for (g, e) in dx.iter().zip(&fd) {
            prop_assert!((g - e).abs() <= 1e-8 + 1e-7 * e.abs(), "{} vs fd {}", g, e);
        }
    }

    #[test]
    fn prop_triangular_quadratic(
        x in prop::collection::vec(-2.0f64..2.0, 1..8),
        wraw in prop::collection::vec(-1.0f64..1.0, 64),
    ) {
        let n = x.len();
        let w = &wraw[..n * n];
        let (value, dx) = triangular_quadratic_grad(&x, w);
        prop_assert_eq!(value.to_bits(), triangular_quadratic(&x, w).to_bits());
        // A quadratic: central differences are exact up to round-off.
        let fd = fd_slice(|x| triangular_quadratic(x, w), &x);
        for (g, e) in dx.iter().zip(&fd) {
            prop_assert!((g - e).abs() <= 1e-8 + 1e-7 * e.abs(), "{} vs fd {}", g, e);
        }
    }

    #[test]
    fn prop_horner(c in prop::collection::vec(-2.0f64..2.0, 1..8), x in -1.5f64..1.5) {
        let (value, dc, dx) = horner_grad(&c, x);
        prop_assert_eq!(value.to_bits(), horner(&c, x).to_bits());
        let fdc = fd_slice(|c| horner(c, x), &c);
        for (g, e) in dc.iter().zip(&fdc) {
            prop_assert!((g - e).abs() <= 1e-8 + 1e-7 * e.abs(), "{} vs fd {}", g, e);
        }
        let fdx = central_difference(|x: f64| horner(&c, x), x);
        prop_assert!((dx - fdx).abs() <= 1e-8 + 1e-7 * fdx.abs(), "{} vs fd {}", dx, fdx);
    }

    #[test]
    fn prop_trimmed_variation(x in prop::collection::vec(-3.0f64..3.0, 3..12), k in 0usize..2) {
        prop_assume!(x.len() > 2 * k + 1);
        let (value, dx) = trimmed_variation_grad(&x, k);
        prop_assert_eq!(value.to_bits(), trimmed_variation(&x, k).to_bits());
        let fd = fd_slice(|x| trimmed_variation(x, k), &x);
        for (g, e) in dx.iter().zip(&fd) {
            prop_assert!((g - e).abs() <= 1e-8 + 1e-7 * e.abs(), "{} vs fd {}", g, e);
        }
    }

    #[test]
    fn prop_rev_inclusive(x in prop::collection::vec(-3.0f64..3.0, 2..10), q in -1.0f64..1.0) {
        let (value, dx, dq) = rev_inclusive_grad(&x, q);
        prop_assert_eq!(value.to_bits(), rev_inclusive(&x, q).to_bits());
        let fd = fd_slice(|x| rev_inclusive(x, q), &x);
        for (g, e) in dx.iter().zip(&fd) {
            prop_assert!((g - e).abs() <= 1e-8 + 1e-7 * e.abs(), "{} vs fd {}", g, e);
        }
        let fdq = central_difference(|q: f64| rev_inclusive(&x, q), q);
        prop_assert!((dq - fdq).abs() <= 1e-8 + 1e-7 * fdq.abs(), "{} vs fd {}", dq, fdq);
    }

    #[test]
    fn prop_halvings(x in -3.0f64..3.0, n in 0usize..25) {
        let (value, dx) = halvings_grad(x, n);
        prop_assert_eq!(value.to_bits(), halvings(x, n).to_bits());
        let fd = central_difference(|x: f64| halvings(x, n), x);
        prop_assert!((dx - fd).abs() <= 1e-8 + 1e-7 * fd.abs(), "{} vs fd {}", dx, fd);
    }
}

// ---------------------------------------------------------------------------
// What a loop keeps from its forward sweep: results of expensive operations
// (`exp`, `tanh`, `/`, ..) and what an inner loop leaves behind, so the
// reverse sweep neither recomputes them nor re-runs the inner loop.

/// The after-value of an inner running sum read twice (`acc * acc`), a
/// `tanh` of it, and a division by a value that changes every iteration.
#[differentiable]
fn kept_after_values(w: &[f64], x: &[f64], c: f64) -> f64 {
    let n = x.len();
    let mut s = 0.0;
    for i in 0..w.len() / n {
        let mut acc = c;
        for j in 0..n {
            acc += w[i * n + j] * x[j];
        }
        let t = acc.tanh();
        s += acc * acc * t / (1.0 + x[i % n] * x[i % n]);
    }
    s
}

/// An inner loop that keeps values of its own (a product needs its
/// entry values, an `exp` is kept), so it is re-run to fill its stack;
/// the outer `ln` and `sqrt` are kept on the outer stack.
#[differentiable]
fn kept_nested_products(x: &[f64], y: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        let mut p = 1.0;
        for j in 0..i + 1 {
            p *= 1.0 + 0.1 * (x[j] * y).exp();
        }
        let q = (p + x[i] * x[i]).ln();
        s += q.sqrt() * p;
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn prop_kept_values_match_finite_differences(
        x in prop::collection::vec(-1.0f64..1.0, 1..6),
        wseed in prop::collection::vec(-0.5f64..0.5, 24),
        c in -1.0f64..1.0,
        y in -1.0f64..1.0,
    ) {
        let w = &wseed[..x.len() * (24 / x.len()).min(4)];
        // Smooth functions of inputs and values of order 1–10: central
        // differences agree to about 1e-7 relative.
        let close = |g: f64, e: f64| (g - e).abs() <= 1e-7 + 1e-6 * e.abs();

        let (value, dw, dx, dc) = kept_after_values_grad(w, &x, c);
        prop_assert_eq!(value.to_bits(), kept_after_values(w, &x, c).to_bits());
        for (g, e) in dw.iter().zip(&fd_slice(|w| kept_after_values(w, &x, c), w)) {
            prop_assert!(close(*g, *e), "dw {} vs fd {}", g, e);
        }
        for (g, e) in dx.iter().zip(&fd_slice(|x| kept_after_values(w, x, c), &x)) {
            prop_assert!(close(*g, *e), "dx {} vs fd {}", g, e);
        }
        let fdc = central_difference(|c: f64| kept_after_values(w, &x, c), c);
        prop_assert!(close(dc, fdc), "dc {} vs fd {}", dc, fdc);

        let (value, dx, dy) = kept_nested_products_grad(&x, y);
        prop_assert_eq!(value.to_bits(), kept_nested_products(&x, y).to_bits());
        for (g, e) in dx.iter().zip(&fd_slice(|x| kept_nested_products(x, y), &x)) {
            prop_assert!(close(*g, *e), "dx {} vs fd {}", g, e);
        }
        let fdy = central_difference(|y: f64| kept_nested_products(&x, y), y);
        prop_assert!(close(dy, fdy), "dy {} vs fd {}", dy, fdy);
    }
}

// ---------------------------------------------------------------------------
// A counter stepped by a literal in a nested loop (ADBench GMM's `li`): the
// reverse computes it from the loop index instead of stacking it.

#[differentiable]
fn triangle_with_counter(w: &[f64], x: &[f64]) -> f64 {
    let n = x.len();
    let mut acc = 0.0;
    let mut li = 1;
    for i in 0..n {
        for j in i + 1..n {
            acc += w[li] * x[i] * x[j];
            li += 2;
        }
    }
    acc
}

#[test]
fn a_counter_stepped_by_a_literal_is_recomputed_right() {
    let x = [0.3, -1.2, 0.7, 2.0];
    let w: Vec<f64> = (0..14).map(|k| 0.1 * k as f64 - 0.4).collect();
    let (v, dw, dx) = triangle_with_counter_grad(&w, &x);
    // Closed form: pair (i, j) in order uses w[1 + 2 p] for its rank p.
    let mut expected_dw = vec![0.0; w.len()];
    let mut expected_dx = [0.0; 4];
    let mut expected_v = 0.0;
    let mut p = 0;
    for i in 0..4 {
        for j in i + 1..4 {
            let wi = w[1 + 2 * p];
            expected_v += wi * x[i] * x[j];
            expected_dw[1 + 2 * p] = x[i] * x[j];
            expected_dx[i] += wi * x[j];
            expected_dx[j] += wi * x[i];
            p += 1;
        }
    }
    assert_relative_eq!(v, expected_v, epsilon = 1e-14, max_relative = 1e-14);
    assert_close_slices(&dw, &expected_dw, 1e-14, 1e-14);
    assert_close_slices(&dx, &expected_dx, 1e-14, 1e-14);
}

// ---------------------------------------------------------------------------
// An element read at an index fixed through an inner loop (issue 37, the
// GMM triangle's `xcentered[i]` in its `j` loop): the reverse adds its
// adjoint up in a local and writes the element once after the inner loop,
// only if that loop ran (at `i = d` the inner range is empty and `x[d]`
// would be out of bounds).

#[differentiable]
fn lower_triangle(w: &[f64], x: &[f64], d: usize) -> f64 {
    let mut xs = vec![0.0; d];
    for i in 0..d {
        xs[i] = x[i] * x[i];
    }
    let mut q = vec![0.0; d];
    let mut li = 0;
    let mut s = 0.0;
    for i in 0..d + 1 {
        for j in i + 1..d {
            q[j] += w[li] * xs[i];
            s += x[i] * w[li] * x[j];
            li += 1;
        }
    }
    let mut n = 0.0;
    for j in 0..d {
        n += q[j] * q[j];
    }
    n + s
}

fn lower_triangle_plain(w: &[f64], x: &[f64], d: usize) -> f64 {
    let mut q = vec![0.0; d];
    let (mut li, mut s) = (0, 0.0);
    for i in 0..d {
        for j in i + 1..d {
            q[j] += w[li] * x[i] * x[i];
            s += x[i] * w[li] * x[j];
            li += 1;
        }
    }
    q.iter().map(|v| v * v).sum::<f64>() + s
}

#[test]
fn an_element_read_at_an_outer_index_in_an_inner_loop() {
    let d = 5;
    let w: Vec<f64> = (0..d * (d - 1) / 2)
        .map(|i| 0.2 + 0.07 * i as f64)
        .collect();
    let x: Vec<f64> = (0..d).map(|i| 0.9 - 0.35 * i as f64).collect();
    let (value, dw, dx) = lower_triangle_grad(&w, &x, d);
    assert_relative_eq!(value, lower_triangle_plain(&w, &x, d), max_relative = 1e-13);
    // Central differences (step ε^⅓·max(1, |x|) ≈ 6e-6): truncation and
    // rounding below 1e-9 on values of order 1.
    let fd_w = fd_slice(|w| lower_triangle_plain(w, &x, d), &w);
    let fd_x = fd_slice(|x| lower_triangle_plain(&w, x, d), &x);
    assert_close_slices(&dw, &fd_w, 1e-8, 1e-7);
    assert_close_slices(&dx, &fd_x, 1e-8, 1e-7);
}
