//! In-out (`&mut`) arguments of functions generic over their scalar
//! (`T: Float`), in reverse and forward mode, at `f64` and `f32`: the
//! helper's own items, and calls to it from a generic function and from a
//! function of `f64`. Expected values are closed forms or central
//! differences of the primal.

// The bodies are written as generic numeric code is: indexed loops, and
// `s = s + ..` (`Float` has no `+=`); a body copies an array argument
// with `clone` (it does not dereference one).
#![allow(
    clippy::needless_range_loop,
    clippy::assign_op_pattern,
    clippy::clone_on_copy
)]

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::num_traits::Float;

/// One explicit Euler step of y' = -k y, in place.
#[differentiable(jvp)]
fn step<T: Float>(y: &mut [T], k: T, dt: T) {
    for i in 0..y.len() {
        y[i] = y[i] + dt * (-k * y[i]);
    }
}

/// `n` Euler steps from `y0`, then the sum of squares.
#[differentiable(jvp)]
fn euler_loss<T: Float>(y0: &[T], k: T, dt: T, n: usize) -> T {
    let mut y = y0.to_vec();
    for _ in 0..n {
        step(&mut y, k, dt);
    }
    let mut s = T::zero();
    for i in 0..y.len() {
        s = s + y[i] * y[i];
    }
    s
}

/// The same loss written for `f64`, calling the generic step.
#[differentiable(jvp)]
fn euler_loss_f64(y0: &[f64], k: f64, dt: f64, n: usize) -> f64 {
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

/// Adds `v * w` to `acc`.
#[differentiable(jvp)]
fn accumulate<T: Float>(acc: &mut T, v: T, w: T) {
    *acc = *acc + v * w;
}

/// x · w through the accumulator.
#[differentiable(jvp)]
fn dot<T: Float>(x: &[T], w: &[T]) -> T {
    let mut acc = T::zero();
    for i in 0..x.len() {
        accumulate(&mut acc, x[i], w[i]);
    }
    acc
}

/// One Euler step on a fixed-length array; returns the first component
/// before the step.
#[differentiable(jvp)]
fn step3<T: Float>(y: &mut [T; 3], k: T, dt: T) -> T {
    let first = y[0];
    for i in 0..3 {
        y[i] = y[i] + dt * (-k * y[i]);
    }
    first
}

/// `n` steps of `step3` from a function of `f64`, reading the results.
#[differentiable(jvp)]
fn array_loss_f64(y0: &[f64; 3], k: f64, dt: f64, n: usize) -> f64 {
    let mut y = y0.clone();
    let mut firsts = 0.0;
    for _ in 0..n {
        firsts += step3(&mut y, k, dt);
    }
    firsts + y[2] * y[2]
}

/// The closed form of `euler_loss`: s0 r^(2n), r = 1 - k dt; its gradient.
fn euler_closed(y0: &[f64], k: f64, dt: f64, n: usize) -> (f64, Vec<f64>, f64, f64) {
    let r = 1.0 - k * dt;
    let s0: f64 = y0.iter().map(|v| v * v).sum();
    let m = 2 * n as i32;
    let dr = m as f64 * s0 * r.powi(m - 1);
    let dy0 = y0.iter().map(|v| 2.0 * v * r.powi(m)).collect();
    (s0 * r.powi(m), dy0, dr * -dt, dr * -k)
}

fn central(f: impl Fn(f64) -> f64) -> f64 {
    let h = 1e-6;
    (f(h) - f(-h)) / (2.0 * h)
}

#[test]
fn generic_caller_of_a_generic_step_matches_the_closed_form_at_f64() {
    let (k, dt, n) = (0.7, 0.05, 20);
    let y0 = [1.0, -2.0, 0.5];
    let (want, want_dy0, want_dk, want_ddt) = euler_closed(&y0, k, dt, n);
    let (loss, dy0, dk, ddt) = euler_loss_grad(&y0, k, dt, n);
    assert_eq!(loss, euler_loss(&y0, k, dt, n));
    assert_relative_eq!(loss, want, max_relative = 1e-12);
    for i in 0..3 {
        assert_relative_eq!(dy0[i], want_dy0[i], max_relative = 1e-12);
    }
    assert_relative_eq!(dk, want_dk, max_relative = 1e-12);
    assert_relative_eq!(ddt, want_ddt, max_relative = 1e-12);
    let (value, tangent) = euler_loss_jvp(&y0, k, dt, n, &[1.0, 0.0, 0.0], 0.5, 0.0);
    assert_eq!(value, loss);
    assert_relative_eq!(tangent, want_dy0[0] + 0.5 * want_dk, max_relative = 1e-12);
}

#[test]
fn generic_caller_of_a_generic_step_matches_the_closed_form_at_f32() {
    let (k, dt, n) = (0.7f32, 0.05f32, 20);
    let y0 = [1.0f32, -2.0, 0.5];
    let y0_64: Vec<f64> = y0.iter().map(|&v| v as f64).collect();
    let (want, want_dy0, want_dk, want_ddt) = euler_closed(&y0_64, k as f64, dt as f64, n);
    let (loss, dy0, dk, ddt) = euler_loss_grad(&y0, k, dt, n);
    // Single precision through 20 steps: relative 1e-5.
    assert_relative_eq!(loss as f64, want, max_relative = 1e-5);
    for i in 0..3 {
        assert_relative_eq!(dy0[i] as f64, want_dy0[i], max_relative = 1e-5);
    }
    assert_relative_eq!(dk as f64, want_dk, max_relative = 1e-5);
    assert_relative_eq!(ddt as f64, want_ddt, max_relative = 1e-5);
    let (_, tangent) = euler_loss_jvp(&y0, k, dt, n, &[0.0, 1.0, 0.0], 0.0, 1.0);
    assert_relative_eq!(tangent as f64, want_dy0[1] + want_ddt, max_relative = 1e-5);
}

#[test]
fn f64_caller_of_a_generic_step_matches_the_closed_form() {
    let (k, dt, n) = (0.4, 0.1, 12);
    let y0 = [0.3, 1.5];
    let (want, want_dy0, want_dk, want_ddt) = euler_closed(&y0, k, dt, n);
    let (loss, dy0, dk, ddt) = euler_loss_f64_grad(&y0, k, dt, n);
    assert_relative_eq!(loss, want, max_relative = 1e-12);
    for i in 0..2 {
        assert_relative_eq!(dy0[i], want_dy0[i], max_relative = 1e-12);
    }
    assert_relative_eq!(dk, want_dk, max_relative = 1e-12);
    assert_relative_eq!(ddt, want_ddt, max_relative = 1e-12);
    let (value, tangent) = euler_loss_f64_jvp(&y0, k, dt, n, &[0.0, 2.0], 0.0, -1.0);
    assert_eq!(value, loss);
    assert_relative_eq!(tangent, 2.0 * want_dy0[1] - want_ddt, max_relative = 1e-12);
}

#[test]
fn generic_accumulator_gives_the_dot_products_gradient_at_f64_and_f32() {
    let (x, w) = ([1.0, -2.0, 3.0], [0.5, 0.25, -1.5]);
    let (value, dx, dw) = dot_grad(&x, &w);
    assert_relative_eq!(value, 0.5 - 0.5 - 4.5, max_relative = 1e-15);
    for i in 0..3 {
        assert_eq!(dx[i], w[i]);
        assert_eq!(dw[i], x[i]);
    }
    let (x32, w32) = ([1.0f32, -2.0, 3.0], [0.5f32, 0.25, -1.5]);
    let (value, dx, dw) = dot_grad(&x32, &w32);
    assert_eq!(value, -4.5f32);
    for i in 0..3 {
        assert_eq!(dx[i], w32[i]);
        assert_eq!(dw[i], x32[i]);
    }
    // Tangent along (dx, dw) = (w, x): w·w + x·x.
    let (_, tangent) = dot_jvp(&x32, &w32, &w32, &x32);
    assert_relative_eq!(tangent, 2.5625f32 + 14.0, max_relative = 1e-6);
}

#[test]
fn generic_helpers_own_items_at_f64_and_f32() {
    // y ← y r, r = 1 - k dt. Seeding the final value with ȳ:
    // ∂/∂y = ȳ r, ∂/∂k = -dt Σ ȳ y, ∂/∂dt = -k Σ ȳ y.
    let (k, dt) = (0.7, 0.05);
    let y0 = [1.0, -2.0, 0.5];
    let seed = vec![0.3, 1.0, -2.0];
    let r = 1.0 - k * dt;
    let mut y = y0.to_vec();
    let ((), pullback) = step_vjp(&mut y, k, dt);
    assert_eq!(y, y0.iter().map(|v| v * r).collect::<Vec<_>>());
    let (dy, dk, ddt) = pullback(seed.clone());
    let sy: f64 = (0..3).map(|i| seed[i] * y0[i]).sum();
    for i in 0..3 {
        assert_relative_eq!(dy[i], seed[i] * r, max_relative = 1e-14);
    }
    assert_relative_eq!(dk, -dt * sy, max_relative = 1e-14);
    assert_relative_eq!(ddt, -k * sy, max_relative = 1e-14);
    // The final tangent: dy r - y (k ddt + dt dk).
    let (tdy, tdk, tddt) = ([0.3f32, 0.1, -0.4], 0.25f32, -0.5f32);
    let (k32, dt32) = (k as f32, dt as f32);
    let mut y = [1.0f32, -2.0, 0.5].to_vec();
    let ((), d_final) = step_jvp(&mut y, k32, dt32, &tdy, tdk, tddt);
    for i in 0..3 {
        let y0 = y0[i] as f32;
        let expected = tdy[i] * (1.0 - k32 * dt32) - y0 * (k32 * tddt + dt32 * tdk);
        assert_relative_eq!(d_final[i], expected, max_relative = 1e-6);
    }
    // A result and an array: `step3_grad` seeds the final value with 0.
    let mut z = [2.0f32, 1.0, -1.0];
    let (first, dz, dk3, ddt3) = step3_grad(&mut z, 0.5, 0.1);
    assert_eq!(first, 2.0);
    assert_eq!(z, [1.9, 0.95, -0.95]);
    assert_eq!((dz, dk3, ddt3), ([1.0, 0.0, 0.0], 0.0, 0.0));
    let mut acc = 1.0;
    let ((), pullback) = accumulate_vjp(&mut acc, 2.0, 3.0);
    assert_eq!(acc, 7.0);
    assert_eq!(pullback(2.0), (2.0, 6.0, 4.0));
}

#[test]
fn f64_caller_of_a_generic_array_step_reading_its_result() {
    let (y0, k, dt, n) = ([0.8, -0.3, 0.5], 0.6, 0.1, 6);
    let (value, dy0, dk, ddt) = array_loss_f64_grad(&y0, k, dt, n);
    assert_eq!(value, array_loss_f64(&y0, k, dt, n));
    // Central differences at h = 1e-6: error ~1e-9 here.
    for i in 0..3 {
        let expected = central(|t| {
            let mut y = y0;
            y[i] += t;
            array_loss_f64(&y, k, dt, n)
        });
        assert_relative_eq!(dy0[i], expected, epsilon = 1e-8, max_relative = 1e-7);
    }
    let expected = central(|t| array_loss_f64(&y0, k + t, dt, n));
    assert_relative_eq!(dk, expected, epsilon = 1e-8, max_relative = 1e-7);
    let expected = central(|t| array_loss_f64(&y0, k, dt + t, n));
    assert_relative_eq!(ddt, expected, epsilon = 1e-8, max_relative = 1e-7);
    let (v, tangent) = array_loss_f64_jvp(&y0, k, dt, n, &[0.2, 1.0, -0.5], 0.3, 0.0);
    assert_eq!(v, value);
    let along = 0.2 * dy0[0] + dy0[1] - 0.5 * dy0[2] + 0.3 * dk;
    assert_relative_eq!(tangent, along, max_relative = 1e-12);
}

/// Halves `y` in place: no argument but the buffer names the scalar.
#[differentiable(jvp)]
fn halve<T: Float>(y: &mut [T]) {
    for i in 0..y.len() {
        y[i] = y[i] * T::from(0.5).unwrap();
    }
}

/// An array passed to the generic helpers' `&mut [T]`.
#[differentiable(jvp)]
fn halved_steps(y0: &[f64; 2], k: f64) -> f64 {
    let mut y = y0.clone();
    halve(&mut y);
    step(&mut y, k, 0.1);
    y[0] * y[1]
}

#[test]
fn array_buffer_passed_to_generic_slice_helpers() {
    // y = y0 r / 2, r = 1 - 0.1 k; value = y0₀ y0₁ r² / 4.
    let (y0, k) = ([1.5, -0.8], 0.3);
    let r: f64 = 1.0 - 0.1 * k;
    let (value, dy0, dk) = halved_steps_grad(&y0, k);
    assert_relative_eq!(value, y0[0] * y0[1] * r * r / 4.0, max_relative = 1e-14);
    assert_relative_eq!(dy0[0], y0[1] * r * r / 4.0, max_relative = 1e-14);
    assert_relative_eq!(dy0[1], y0[0] * r * r / 4.0, max_relative = 1e-14);
    assert_relative_eq!(dk, y0[0] * y0[1] * r * -0.1 / 2.0, max_relative = 1e-12);
    let (_, tangent) = halved_steps_jvp(&y0, k, &[0.0, 0.0], 1.0);
    assert_relative_eq!(tangent, dk, max_relative = 1e-12);
}

/// The helpers called with a turbofish, as generic code often names them.
#[differentiable(jvp)]
fn named_steps<T: Float>(y0: &[T], k: T) -> T {
    let mut y = y0.to_vec();
    halve::<T>(&mut y);
    step::<T>(&mut y, k, T::from(0.1).unwrap());
    let mut acc = T::zero();
    accumulate::<T>(&mut acc, y[0], y[1]);
    acc
}

#[test]
fn helpers_called_with_a_turbofish() {
    // The same value as `halved_steps`: y0₀ y0₁ r² / 4, r = 1 - 0.1 k.
    let (y0, k) = ([1.5f32, -0.8], 0.3f32);
    let r = 1.0 - 0.1 * k;
    let (value, dy0, dk) = named_steps_grad(&y0, k);
    assert_relative_eq!(value, y0[0] * y0[1] * r * r / 4.0, max_relative = 1e-6);
    assert_relative_eq!(dy0[0], y0[1] * r * r / 4.0, max_relative = 1e-6);
    assert_relative_eq!(dy0[1], y0[0] * r * r / 4.0, max_relative = 1e-6);
    assert_relative_eq!(dk, y0[0] * y0[1] * r * -0.1 / 2.0, max_relative = 1e-5);
    let (_, tangent) = named_steps_jvp(&y0, k, &[1.0, 0.0], 0.0);
    assert_relative_eq!(tangent, dy0[0], max_relative = 1e-6);
}
