//! In-out (`&mut`) arguments in forward mode (SPEC "Arguments" and
//! "Forward mode and second order"): a `#[differentiable(jvp)]` function
//! calling helpers that update state in place, and the helpers' own
//! `NAME_jvp`. Expected tangents are closed forms or central differences
//! of the primal, with the tolerance stated at each check.
// Index loops are the numerical style under test.
#![allow(clippy::needless_range_loop)]

use approx::assert_relative_eq;
use autograd::differentiable;

/// One explicit Euler step of y' = -k y, in place.
#[differentiable(jvp)]
fn step(y: &mut [f64], k: f64, dt: f64) {
    for i in 0..y.len() {
        y[i] += dt * (-k * y[i]);
    }
}

/// `n` Euler steps from `y0`, then the sum of squares.
#[differentiable(jvp)]
fn euler_loss(y0: &[f64], k: f64, dt: f64, n: usize) -> f64 {
    let mut y = y0.to_vec();
    for _ in 0..n {
        step(&mut y, k, dt);
    }
    let mut s = 0.0;
    for i in 0..y.len() {
        s += y[i] * y[i];
    }
    s
}

/// Adds `v * w` into an accumulator.
#[differentiable(jvp)]
fn accumulate(acc: &mut f64, v: f64, w: f64) {
    *acc += v * w;
}

/// A dot product through the accumulator helper.
#[differentiable(jvp)]
fn dot(x: &[f64], w: &[f64]) -> f64 {
    let mut acc = 0.0;
    for i in 0..x.len() {
        accumulate(&mut acc, x[i], w[i]);
    }
    acc
}

/// Rotates the first two components of `v` by `a` and scales the third by
/// `cos a`; returns the new first component.
#[differentiable(jvp)]
fn rotate(v: &mut [f64; 3], a: f64) -> f64 {
    let (c, s) = (a.cos(), a.sin());
    let x = v[0] * c - v[1] * s;
    let y = v[0] * s + v[1] * c;
    v[0] = x;
    v[1] = y;
    v[2] *= c;
    x
}

/// The helper called twice, its result read both times.
#[differentiable(jvp)]
fn rotated_twice(a: f64, b: f64) -> f64 {
    let mut v = [1.0, a, b];
    let x1 = rotate(&mut v, a);
    let x2 = rotate(&mut v, b);
    x1 * x2 + v[1] * v[2]
}

/// A call inside a branch, on a local array passed as `&mut [f64]`.
#[differentiable(jvp)]
fn branchy(y0: f64, k: f64) -> f64 {
    let mut y = [y0, 2.0 * y0, k];
    if k > 0.5 {
        step(&mut y, k, 0.1);
    } else {
        y[0] *= k;
    }
    y[0] * y[1] + y[2]
}

/// One leapfrog step of the oscillator q'' = -q: two in-out arguments.
#[differentiable(jvp)]
fn leap(q: &mut f64, p: &mut f64, dt: f64) {
    *p -= dt * *q;
    *q += dt * *p;
}

/// `n` leapfrog steps from `(q0, 0)`, then the energy-like `q·p + q²`.
#[differentiable(jvp)]
fn leapfrog(q0: f64, dt: f64, n: usize) -> f64 {
    let mut q = q0;
    let mut p = 0.0;
    for _ in 0..n {
        leap(&mut q, &mut p, dt);
    }
    q * p + q * q
}

/// An in-out argument of its own, updated through the helper: its `_jvp`
/// takes the tangent of the value on entry and gives the final one's.
#[differentiable(jvp)]
fn relax(y: &mut Vec<f64>, k: f64, n: usize) -> f64 {
    for _ in 0..n {
        step(&mut *y, k, 0.1);
    }
    y[0]
}

/// Central difference of `f` along `t ↦ f(t)` at 0, step `H`.
fn central(f: impl Fn(f64) -> f64) -> f64 {
    (f(H) - f(-H)) / (2.0 * H)
}

const H: f64 = 1e-6;

#[test]
fn euler_loop_tangent_matches_the_closed_form() {
    // y_n = y0 r^n with r = 1 - k dt, loss = s0 r^(2n):
    // d loss = Σ 2 y0_i r^(2n) dy0_i + 2n s0 r^(2n-1) (-dt dk - k ddt).
    let (k, dt, n) = (0.7, 0.05, 20);
    let y0 = [1.0, -2.0, 0.5];
    let (dy0, dk, ddt) = ([0.3, 0.1, -0.4], 0.25, -0.5);
    let r = 1.0 - k * dt;
    let s0: f64 = y0.iter().map(|v| v * v).sum();
    let (loss, tangent) = euler_loss_jvp(&y0, k, dt, n, &dy0, dk, ddt);
    assert_eq!(loss, euler_loss(&y0, k, dt, n));
    let along: f64 = (0..3).map(|i| 2.0 * y0[i] * dy0[i]).sum();
    let expected = along * r.powi(2 * n as i32)
        + 2.0 * n as f64 * s0 * r.powi(2 * n as i32 - 1) * (-dt * dk - k * ddt);
    assert_relative_eq!(tangent, expected, max_relative = 1e-12);
}

#[test]
fn accumulator_helper_tangent_is_the_dot_products() {
    let (x, w) = ([1.0, 2.0, -3.0], [0.5, -1.5, 2.0]);
    let (dx, dw) = ([0.2, 0.0, 1.0], [-1.0, 0.3, 0.7]);
    let (value, tangent) = dot_jvp(&x, &w, &dx, &dw);
    assert_eq!(value, dot(&x, &w));
    // d(x·w) = dx·w + x·dw, exact up to rounding.
    let expected: f64 = (0..3).map(|i| dx[i] * w[i] + x[i] * dw[i]).sum();
    assert_relative_eq!(tangent, expected, max_relative = 1e-14);
}

#[test]
fn helper_called_twice_matches_central_differences() {
    let (a, b, da, db) = (0.4, -1.1, 0.7, 0.2);
    let (value, tangent) = rotated_twice_jvp(a, b, da, db);
    assert_eq!(value, rotated_twice(a, b));
    let expected = central(|t| rotated_twice(a + t * da, b + t * db));
    // Central differences at h = 1e-6: error ~1e-9 here.
    assert_relative_eq!(tangent, expected, epsilon = 1e-8, max_relative = 1e-7);
}

#[test]
fn call_in_a_branch_matches_central_differences_on_both_arms() {
    for (y0, k) in [(1.5, 0.9), (1.5, 0.3)] {
        let (dy0, dk) = (0.6, -0.8);
        let (value, tangent) = branchy_jvp(y0, k, dy0, dk);
        assert_eq!(value, branchy(y0, k));
        let expected = central(|t| branchy(y0 + t * dy0, k + t * dk));
        assert_relative_eq!(tangent, expected, epsilon = 1e-8, max_relative = 1e-7);
    }
}

#[test]
fn two_in_out_arguments_in_a_loop_match_central_differences() {
    let (q0, dt, n) = (0.8, 0.1, 30);
    let (dq0, ddt) = (1.0, 0.5);
    let (value, tangent) = leapfrog_jvp(q0, dt, n, dq0, ddt);
    assert_eq!(value, leapfrog(q0, dt, n));
    let expected = central(|t| leapfrog(q0 + t * dq0, dt + t * ddt, n));
    assert_relative_eq!(tangent, expected, epsilon = 1e-8, max_relative = 1e-7);
}

#[test]
fn helpers_own_jvp_gives_the_final_values_tangent() {
    // y ← y (1 - k dt): the final tangent is dy (1 - k dt) - y (k ddt + dt dk).
    let (k, dt) = (0.7, 0.05);
    let y0 = [1.0, -2.0, 0.5];
    let (dy, dk, ddt) = ([0.3, 0.1, -0.4], 0.25, -0.5);
    let mut y = y0.to_vec();
    let ((), dy_final) = step_jvp(&mut y, k, dt, &dy, dk, ddt);
    let mut expected_y = y0.to_vec();
    step(&mut expected_y, k, dt);
    assert_eq!(y, expected_y);
    for i in 0..3 {
        let expected = dy[i] * (1.0 - k * dt) - y0[i] * (k * ddt + dt * dk);
        assert_relative_eq!(dy_final[i], expected, max_relative = 1e-14);
    }
}

#[test]
fn in_out_function_calling_a_helper_gives_both_tangents() {
    // n steps of y ← y (1 - 0.1 k): y_n = y0 r^n, r = 1 - 0.1 k.
    let (k, n) = (0.9, 5);
    let y0 = vec![2.0, -1.0];
    let (dy, dk) = ([0.5, 1.5], 0.3);
    let r: f64 = 1.0 - 0.1 * k;
    let mut y = y0.clone();
    let (first, d_first, dy_final) = relax_jvp(&mut y, k, n, &dy, dk);
    let mut primal = y0.clone();
    assert_eq!(first, relax(&mut primal, k, n));
    assert_eq!(y, primal);
    assert_relative_eq!(first, y0[0] * r.powi(n as i32), max_relative = 1e-14);
    for i in 0..2 {
        let expected =
            dy[i] * r.powi(n as i32) + y0[i] * n as f64 * r.powi(n as i32 - 1) * (-0.1 * dk);
        assert_relative_eq!(dy_final[i], expected, max_relative = 1e-12);
    }
    assert_relative_eq!(d_first, dy_final[0], max_relative = 1e-14);
}

/// Two outputs of the Euler loop: its Jacobian sweeps forward through the
/// helper's forward item, one direction at a time.
#[differentiable(jvp)]
fn euler_pair(y0: f64, k: f64) -> [f64; 2] {
    let mut y = vec![y0, 2.0 * y0];
    for _ in 0..10 {
        step(&mut y, k, 0.05);
    }
    [y[0], y[1] * k]
}

/// One Euler step at `f32`.
#[differentiable(jvp)]
fn step32(y: &mut [f32], k: f32) {
    for i in 0..y.len() {
        y[i] -= 0.1 * k * y[i];
    }
}

#[differentiable(jvp)]
fn decay32(y0: f32, k: f32) -> f32 {
    let mut y = [y0, y0 * y0];
    step32(&mut y, k);
    step32(&mut y, k);
    y[0] + y[1]
}

#[test]
fn jacobian_through_an_in_out_call_matches_the_closed_form() {
    // y_i = c_i y0 r^10 with r = 1 - 0.05 k, (c_0, c_1) = (1, 2).
    let (y0, k) = (1.3, 0.8);
    let r: f64 = 1.0 - 0.05 * k;
    let (value, jac) = euler_pair_jacobian(y0, k);
    assert_eq!(value, euler_pair(y0, k));
    let dr = 10.0 * r.powi(9) * -0.05;
    let expected = [
        [r.powi(10), y0 * dr],
        [2.0 * r.powi(10) * k, 2.0 * y0 * (dr * k + r.powi(10))],
    ];
    for (i, row) in expected.iter().enumerate() {
        for (j, e) in row.iter().enumerate() {
            assert_relative_eq!(jac[(i, j)], *e, max_relative = 1e-12);
        }
    }
}

#[test]
fn f32_in_out_calls_match_the_closed_form() {
    // Two steps: y ← y r² with r = 1 - 0.1 k; value y0 r² + y0² r².
    let (y0, k, dy0, dk) = (1.5f32, 0.6f32, 1.0f32, 0.5f32);
    let r = 1.0 - 0.1 * k;
    let (value, tangent) = decay32_jvp(y0, k, dy0, dk);
    assert_eq!(value, decay32(y0, k));
    let expected = (1.0 + 2.0 * y0) * r * r * dy0 + (y0 + y0 * y0) * 2.0 * r * -0.1 * dk;
    // f32 rounding over a handful of operations.
    assert_relative_eq!(tangent, expected, max_relative = 1e-5);
}

use autograd::nalgebra::{DMatrix, DVector};

/// A gradient step on `x` in place; returns the loss before it.
#[differentiable(jvp)]
fn descend(x: &mut DVector<f64>, a: &DMatrix<f64>, lr: f64) -> f64 {
    let loss = (a * &*x).norm_squared();
    *x = &*x * (1.0 - lr);
    loss
}

/// Two steps from `x0`, the losses summed, then the final `x[0]`: the
/// helper's result read, its `&mut DVector` updated.
#[differentiable(jvp)]
fn descend_twice(x0: &DVector<f64>, a: &DMatrix<f64>, lr: f64) -> f64 {
    let mut x = x0.clone();
    let mut s = descend(&mut x, a, lr);
    s += descend(&mut x, a, lr);
    s + x[0]
}

/// Appends to and scales a `&mut Vec<f64>` (a constant count `n`).
#[differentiable(jvp)]
fn grow(v: &mut Vec<f64>, x: f64, n: usize) {
    for _ in 0..n {
        v.push(x * x);
    }
    for i in 0..v.len() {
        v[i] *= x;
    }
}

#[differentiable(jvp)]
fn grown(x: f64) -> f64 {
    let mut v = vec![1.0];
    grow(&mut v, x, 2);
    v[0] + v[1] * v[2]
}

#[test]
fn nalgebra_in_out_call_with_its_result_read_matches_central_differences() {
    let a = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, -0.5, 1.5]);
    let x0 = DVector::from_vec(vec![0.3, -0.7]);
    let dx0 = DVector::from_vec(vec![1.0, 0.5]);
    let da = DMatrix::from_row_slice(2, 2, &[0.1, 0.0, -0.2, 0.3]);
    let (lr, dlr) = (0.1, 0.7);
    let (value, tangent) = descend_twice_jvp(&x0, &a, lr, &dx0, &da, dlr);
    assert_eq!(value, descend_twice(&x0, &a, lr));
    let expected = central(|t| descend_twice(&(&x0 + t * &dx0), &(&a + t * &da), lr + t * dlr));
    assert_relative_eq!(tangent, expected, epsilon = 1e-8, max_relative = 1e-7);
}

#[test]
fn growing_vec_in_out_call_matches_the_closed_form() {
    // v = [x, x³, x³]: value x + x⁶, tangent 1 + 6 x⁵.
    let x: f64 = 0.9;
    let (value, tangent) = grown_jvp(x, 1.0);
    assert_eq!(value, grown(x));
    assert_relative_eq!(tangent, 1.0 + 6.0 * x.powi(5), max_relative = 1e-14);
}

/// The Euler loop under `#[checkpoint]`: reverse mode keeps snapshots,
/// forward mode runs the loop as written.
#[differentiable(jvp)]
fn euler_checkpointed(y0: f64, k: f64, n: usize) -> f64 {
    let mut y = vec![y0, 1.0];
    #[checkpoint(snapshots = 4)]
    for _ in 0..n {
        step(&mut y, k, 0.05);
    }
    y[0] * y[1]
}

#[test]
fn checkpointed_loop_of_in_out_calls_in_both_modes() {
    // y = (y0 r^n, r^n), r = 1 - 0.05 k: value y0 r^(2n).
    let (y0, k, n) = (1.2, 0.8, 40);
    let r: f64 = 1.0 - 0.05 * k;
    let (value, dy0, dk) = euler_checkpointed_grad(y0, k, n);
    assert_eq!(value, euler_checkpointed(y0, k, n));
    let dr = 2.0 * n as f64 * y0 * r.powi(2 * n as i32 - 1);
    assert_relative_eq!(dy0, r.powi(2 * n as i32), max_relative = 1e-12);
    assert_relative_eq!(dk, dr * -0.05, max_relative = 1e-12);
    let (v, tangent) = euler_checkpointed_jvp(y0, k, n, 0.5, -1.0);
    assert_eq!(v, value);
    assert_relative_eq!(tangent, 0.5 * dy0 - dk, max_relative = 1e-12);
}

/// A read-only helper of a slice.
#[differentiable(jvp)]
fn pair_sum(y: &[f64]) -> f64 {
    y[0] + y[1]
}

/// The function's own in-out argument passed on read-only (`&*y`, which
/// the error for `y` as it is suggests) after an update in place.
#[differentiable(jvp)]
fn scaled_then_read(a: f64, y: &mut [f64]) -> f64 {
    y[0] *= a;
    pair_sum(&*y)
}

#[test]
fn in_out_argument_passed_on_read_only_in_both_modes() {
    // value a y0 + y1; final y = (a y0, y1).
    let (a, y0, y1) = (3.0, 1.5, -2.0);
    let (da, dy) = (0.5, [0.25, -1.0]);
    let mut y = [y0, y1];
    let (value, tangent, dy_final) = scaled_then_read_jvp(a, &mut y, da, &dy);
    assert_eq!(value, a * y0 + y1);
    assert_eq!(y, [a * y0, y1]);
    assert_relative_eq!(tangent, da * y0 + a * dy[0] + dy[1], max_relative = 1e-15);
    assert_relative_eq!(dy_final[0], da * y0 + a * dy[0], max_relative = 1e-15);
    assert_relative_eq!(dy_final[1], dy[1], max_relative = 1e-15);
    // Reverse, the result seeded with 1 and the final y with (w0, w1):
    // d/da = y0 (1 + w0), d/dy0 = a (1 + w0), d/dy1 = 1 + w1.
    let (w0, w1) = (0.5, -0.25);
    let mut y = [y0, y1];
    let (_, pullback) = scaled_then_read_vjp(a, &mut y);
    let (d_a, d_y) = pullback(1.0, vec![w0, w1]);
    assert_relative_eq!(d_a, y0 * (1.0 + w0), max_relative = 1e-15);
    assert_relative_eq!(d_y[0], a * (1.0 + w0), max_relative = 1e-15);
    assert_relative_eq!(d_y[1], 1.0 + w1, max_relative = 1e-15);
}
