//! Fixed-size array arguments far larger than a thread's stack frame
//! (`&[f64; 40_000]`, 320 kB): the sweeps hold their adjoints on the heap
//! (or, in `NAME_grad_acc`, in the caller's buffers), so the generated
//! items need no more stack than the primal and the result they return by
//! value (issue 35, "Crashes and blow-ups", first item: `_grad` overflowed
//! a 2 MiB stack in a debug build).
//!
//! Each call runs on a thread whose stack is [`SPARE`] plus the arrays the
//! caller holds (the result). Before the fix the test build (opt-level 1)
//! needed one more array for `_grad`, `_vjp` and `_grad_acc` (650 kB); a
//! debug build needed 1.9 MB for `_grad`, 4.2 MB for `_grad_acc` and
//! 7.4 MB for `_grad` of a function also taking a slice, and needs 1 MB
//! for each `_grad` now, 80 kB for `_grad_acc` (measured with
//! `STACK_BYTES`). Expected derivatives are closed forms.

#![allow(clippy::needless_range_loop)]

use autograd::differentiable;

const N: usize = 40_000;

/// The stack a call needs beyond the arrays its caller holds: the
/// thread's own and the test's frames (a spawned thread needs 80 kB).
const SPARE: usize = 256 << 10;

/// One `[f64; N]`.
const ARRAY: usize = N * 8;

/// Runs `f` on a thread with a stack of `bytes` (or `STACK_BYTES`, to
/// measure).
fn on_stack<R: Send + 'static>(bytes: usize, f: impl FnOnce() -> R + Send + 'static) -> R {
    let size = std::env::var("STACK_BYTES").map_or(bytes, |s| s.parse().unwrap());
    std::thread::Builder::new()
        .stack_size(size)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

/// A point on the heap: the test's own stack holds no array of it.
fn point() -> Box<[f64; N]> {
    let v: Vec<f64> = (0..N).map(|i| 0.5 + ((i * 7) % 13) as f64 / 13.0).collect();
    v.into_boxed_slice().try_into().unwrap()
}

/// Whether every entry of `d` is `want(i)` to 1e-14 relative.
fn all_close(d: &[f64], want: impl Fn(usize) -> f64) -> bool {
    (0..N).all(|i| (d[i] - want(i)).abs() <= 1e-14 * (1.0 + want(i).abs()))
}

#[differentiable(jvp)]
fn sum_squares(x: &[f64; 40_000]) -> f64 {
    let mut s = 0.0;
    for i in 0..40_000 {
        s += x[i] * x[i];
    }
    s
}

#[differentiable]
fn stencil(x: &[f64; 40_000], w: f64) -> f64 {
    let mut s = 0.0;
    for i in 1..40_000 {
        let d = x[i] - x[i - 1];
        s += w * d * d;
    }
    s
}

/// A slice beside: `_grad_acc` writes both in place.
#[differentiable]
fn with_slice(x: &[f64; 40_000], y: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..40_000 {
        s += x[i] * y[i % 4];
    }
    s
}

#[test]
fn the_primal_runs_on_the_spare_stack() {
    let x = point();
    let v = on_stack(SPARE, move || sum_squares(&x) + stencil(&x, 1.0));
    assert!(v > 0.0);
}

#[test]
fn grad_of_a_large_array_needs_the_result_s_stack_only() {
    let x = point();
    assert!(on_stack(SPARE + ARRAY, move || {
        let g = sum_squares_grad(&x);
        all_close(&g.1, |i| 2.0 * x[i])
    }));
}

#[test]
fn vjp_of_a_large_array_needs_the_result_s_stack_only() {
    let x = point();
    assert!(on_stack(SPARE + ARRAY, move || {
        let (_, pullback) = sum_squares_vjp(&x);
        let d = pullback(0.5);
        all_close(&d.0, |i| x[i])
    }));
}

#[test]
fn grad_acc_of_a_large_array_needs_no_array_s_stack() {
    let x = point();
    assert!(on_stack(SPARE, move || {
        let mut d = vec![1.0; N];
        sum_squares_grad_acc(&x, &mut d);
        all_close(&d, |i| 1.0 + 2.0 * x[i])
    }));
}

#[test]
fn jvp_of_a_large_array_needs_no_array_s_stack() {
    let x = point();
    assert!(on_stack(SPARE, move || {
        // Along x itself: 2·Σ x_i².
        let (v, t) = sum_squares_jvp(&x, &x);
        (t - 2.0 * v).abs() <= 1e-12 * v
    }));
}

#[test]
fn grad_of_a_stencil_over_a_large_array() {
    let x = point();
    assert!(on_stack(SPARE + ARRAY, move || {
        let g = stencil_grad(&x, 1.0);
        all_close(&g.1, |i| {
            let l = if i > 0 { 2.0 * (x[i] - x[i - 1]) } else { 0.0 };
            let r = if i + 1 < N {
                2.0 * (x[i + 1] - x[i])
            } else {
                0.0
            };
            l - r
        })
    }));
}

#[test]
fn grad_of_a_large_array_beside_a_slice() {
    let x = point();
    assert!(on_stack(SPARE + ARRAY, move || {
        let y = [1.0, 2.0, 3.0, 4.0];
        let g = with_slice_grad(&x, &y);
        all_close(&g.1, |i| y[i % 4])
    }));
}

#[test]
fn grad_acc_of_a_large_array_beside_a_slice() {
    let x = point();
    assert!(on_stack(SPARE, move || {
        let y = [1.0, 2.0, 3.0, 4.0];
        let (mut d, mut dy) = (vec![0.0; N], vec![0.0; 4]);
        with_slice_grad_acc(&x, &y, &mut d, &mut dy);
        all_close(&d, |i| y[i % 4])
    }));
}

// ---------------------------------------------------------------------------
// A large array the body declares (`let mut a = [0.0; 40_000]`): the sweeps
// build it, and its adjoint, on the heap and move a pointer, where a build
// copied the whole array at the `let`s of its values and adjoints. The
// primal needs one array (320 kB); before, the test build (opt-level 1)
// needed 320 kB for `_grad` and `_grad_acc`, 636 kB for `_jvp`, and a
// debug build 4.2 MB for `_grad`; now each needs under 20 kB (measured
// with `STACK_BYTES`), so they run on `SPARE` alone.

/// f = Σ_{i<n} w·x_i (the array's other elements stay 0):
/// ∂f/∂x_i = w for i < n, ∂f/∂w = Σ_{i<n} x_i.
#[differentiable(jvp, hessian)]
fn local_array(x: &[f64], w: f64, n: usize) -> f64 {
    let mut a = [0.0; 40_000];
    for i in 0..n {
        a[i] = x[i] * w;
    }
    a.iter().sum()
}

#[test]
fn the_primal_of_a_local_array_runs_on_one_array_s_stack() {
    let x = point();
    let v = on_stack(SPARE + ARRAY, move || local_array(&x[..], 1.5, N));
    assert!(v > 0.0);
}

#[test]
fn grad_of_a_local_array_needs_no_array_s_stack() {
    let x = point();
    assert!(on_stack(SPARE, move || {
        let (_, dx, dw) = local_array_grad(&x[..], 1.5, N);
        let sum: f64 = x.iter().sum();
        all_close(&dx, |_| 1.5) && (dw - sum).abs() <= 1e-12 * sum
    }));
}

#[test]
fn grad_acc_of_a_local_array_needs_no_array_s_stack() {
    let x = point();
    assert!(on_stack(SPARE, move || {
        let (mut dx, mut dw) = (vec![0.0; N], 0.0);
        local_array_grad_acc(&x[..], 1.5, N, &mut dx, &mut dw);
        let sum: f64 = x.iter().sum();
        all_close(&dx, |_| 1.5) && (dw - sum).abs() <= 1e-12 * sum
    }));
}

#[test]
fn jvp_of_a_local_array_needs_no_array_s_stack() {
    let x = point();
    assert!(on_stack(SPARE, move || {
        // Along (x, 0): f itself; along (0, 1): Σ x_i.
        let zeros = vec![0.0; N];
        let (v, t) = local_array_jvp(&x[..], 1.5, N, &x[..], 0.0);
        let (_, tw) = local_array_jvp(&x[..], 1.5, N, &zeros, 1.0);
        let sum: f64 = x.iter().sum();
        (t - v).abs() <= 1e-12 * v && (tw - sum).abs() <= 1e-12 * sum
    }));
}

#[test]
fn hvp_of_a_local_array_needs_no_array_s_stack() {
    let x = point();
    assert!(on_stack(SPARE, move || {
        // ∂²f/∂x_i∂w = 1, the rest 0: along (v_x, v_w), (H·v)_x = v_w,
        // (H·v)_w = Σ v_x.
        let vx = vec![0.25; N];
        let (_, gx, gw, hx, hw) = local_array_hvp(&x[..], 1.5, N, &vx, 2.0);
        let sum: f64 = x.iter().sum();
        let vsum = 0.25 * N as f64;
        all_close(&gx, |_| 1.5)
            && (gw - sum).abs() <= 1e-12 * sum
            && all_close(&hx, |_| 2.0)
            && (hw - vsum).abs() <= 1e-12 * vsum
    }));
}

// ---------------------------------------------------------------------------
// A large array by value (`x: [f64; 40_000]`): its adjoint is built on the
// heap and moved once into the `[f64; N]` the SPEC returns (or added into
// the caller's buffer by `_grad_acc`). The primal needs the argument's
// copy on the caller's stack (320 kB, as these tests hold it); before, the
// test build needed 944 kB for `_grad` and 1.26 MB for `_grad_acc`; now
// `_grad` 636 kB (the copy and the result it returns), `_grad_acc` 320 kB,
// `_vjp` 636 kB (the pullback owns its copy of `x`, and returns the
// array, as before), `_jvp` 320 kB (as before).

/// f = w·Σ x_i²: ∂f/∂x_i = 2w·x_i, ∂f/∂w = Σ x_i².
#[differentiable(jvp)]
fn by_value(x: [f64; 40_000], w: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..40_000 {
        s += w * x[i] * x[i];
    }
    s
}

fn squares(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum()
}

#[test]
fn grad_of_a_large_array_by_value_needs_its_copy_and_the_result_s_stack() {
    let x = point();
    assert!(on_stack(SPARE + 2 * ARRAY, move || {
        let (_, dx, dw) = by_value_grad(*x, 1.5);
        let s = squares(&x[..]);
        all_close(&dx, |i| 3.0 * x[i]) && (dw - s).abs() <= 1e-12 * s
    }));
}

#[test]
fn grad_acc_of_a_large_array_by_value_needs_the_primal_s_stack() {
    let x = point();
    assert!(on_stack(SPARE + ARRAY, move || {
        let (mut dx, mut dw) = (vec![1.0; N], 0.5);
        by_value_grad_acc(*x, 1.5, &mut dx, &mut dw);
        let s = squares(&x[..]);
        all_close(&dx, |i| 1.0 + 3.0 * x[i]) && (dw - 0.5 - s).abs() <= 1e-12 * s
    }));
}

#[test]
fn vjp_of_a_large_array_by_value_needs_its_copy_and_the_result_s_stack() {
    let x = point();
    assert!(on_stack(SPARE + 2 * ARRAY, move || {
        let (_, pullback) = by_value_vjp(*x, 1.5);
        let (dx, dw) = pullback(-2.0);
        let s = squares(&x[..]);
        all_close(&dx, |i| -6.0 * x[i]) && (dw + 2.0 * s).abs() <= 1e-12 * s
    }));
}

#[test]
fn jvp_of_a_large_array_by_value_needs_the_primal_s_stack() {
    let x = point();
    assert!(on_stack(SPARE + ARRAY, move || {
        // Along (0, 1): Σ x_i².
        let zeros = vec![0.0; N];
        let (_, t) = by_value_jvp(*x, 1.5, zeros.as_slice().try_into().unwrap(), 1.0);
        let s = squares(&x[..]);
        (t - s).abs() <= 1e-12 * s
    }));
}

// ---------------------------------------------------------------------------
// `_hessian` and `_hvp` of a moderately large array (2 048 elements, 16 kB;
// 32 kB of dual numbers), by reference and by value: the dense Hessian is
// on the heap, and the sweeps need a few arrays of duals (measured in the
// test build with `STACK_BYTES`: `_hessian` 120 kB by reference and
// 136 kB by value, the `_hvp` test, both calls with `x` and the direction
// held, 168 kB; the primal under 20 kB): within `SPARE`, not yet within a
// small multiple of the primal's own need.

const M: usize = 2048;

/// f = Σ_{i≥1} x_i·x_{i−1}: ∂f/∂x_i = x_{i−1} + x_{i+1} (where they exist),
/// ∂²f/∂x_i∂x_j = 1 where |i − j| = 1, 0 elsewhere.
#[differentiable(hessian)]
fn chain_ref(x: &[f64; 2048]) -> f64 {
    let mut s = 0.0;
    for i in 1..2048 {
        s += x[i] * x[i - 1];
    }
    s
}

#[differentiable(hessian)]
fn chain_value(x: [f64; 2048]) -> f64 {
    let mut s = 0.0;
    for i in 1..2048 {
        s += x[i] * x[i - 1];
    }
    s
}

fn chain_point() -> Box<[f64; M]> {
    let v: Vec<f64> = (0..M).map(|i| 0.5 + ((i * 5) % 11) as f64 / 11.0).collect();
    v.into_boxed_slice().try_into().unwrap()
}

fn chain_gradient(x: &[f64], i: usize) -> f64 {
    let l = if i > 0 { x[i - 1] } else { 0.0 };
    let r = if i + 1 < M { x[i + 1] } else { 0.0 };
    l + r
}

/// Whether `g` is the gradient and `h` the Hessian of the chain at `x`.
fn chain_checks(x: &[f64], g: &[f64], h: &autograd::nalgebra::DMatrix<f64>) -> bool {
    (0..M).all(|i| (g[i] - chain_gradient(x, i)).abs() <= 1e-14)
        && (0..M).all(|i| (0..M).all(|j| h[(i, j)] == if i.abs_diff(j) == 1 { 1.0 } else { 0.0 }))
}

#[test]
fn hessian_of_a_large_array_by_reference_runs_on_the_spare_stack() {
    let x = chain_point();
    assert!(on_stack(SPARE, move || {
        let (_, g, h) = chain_ref_hessian(&x);
        chain_checks(&x[..], g.as_slice(), &h)
    }));
}

#[test]
fn hessian_of_a_large_array_by_value_runs_on_the_spare_stack() {
    let x = chain_point();
    assert!(on_stack(SPARE, move || {
        let (_, g, h) = chain_value_hessian(*x);
        chain_checks(&x[..], g.as_slice(), &h)
    }));
}

#[test]
fn hvp_of_a_large_array_runs_on_the_spare_stack() {
    let x = chain_point();
    assert!(on_stack(SPARE, move || {
        // H·1: 2 inside, 1 at both ends.
        let ones = [1.0; M];
        let (_, g, hv) = chain_ref_hvp(&x, &ones);
        let (_, gv, hvv) = chain_value_hvp(*x, &ones);
        let want = |i: usize| if i == 0 || i + 1 == M { 1.0 } else { 2.0 };
        (0..M).all(|i| {
            (g[i] - chain_gradient(&x[..], i)).abs() <= 1e-14
                && gv[i] == g[i]
                && hv[i] == want(i)
                && hvv[i] == want(i)
        })
    }));
}
