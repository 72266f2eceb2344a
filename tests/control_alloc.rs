//! The reverse sweep of a loop allocates a bounded number of times per
//! call, independent of the trip count: each value stack reserves its
//! capacity from the trip count once, and nothing allocates per iteration.
//!
//! A counting global allocator counts the allocations of the current
//! thread only (thread-local switch and counter), so the test harness and
//! other tests running in parallel do not interfere.

// A `#[differentiable]` body indexes slices in `for i in a..b` loops (its
// supported iteration form); clippy would rather see iterators.
#![allow(clippy::needless_range_loop)]

use autograd::differentiable;

mod alloc_support;

/// The number of allocations (and reallocations) `f` makes, run on a
/// thread of its own: its buffer pool starts empty, so the count is a cold
/// call's whatever ran before (which blocks an earlier call left in the
/// pool, and in which order a call takes them, is not what is tested).
fn allocations<R: Send>(f: impl FnOnce() -> R + Send) -> (usize, R) {
    std::thread::scope(|s| {
        s.spawn(|| {
            let (r, n) = alloc_support::allocations_during(|| std::hint::black_box(f()));
            (n, r)
        })
        .join()
        .expect("the measured call does not panic")
    })
}

#[differentiable]
fn discount(rate: f64, n: usize) -> f64 {
    let mut acc = 1.0;
    for _ in 0..n {
        acc *= 1.0 / (1.0 + rate);
    }
    acc
}

#[differentiable]
fn product(x: &[f64]) -> f64 {
    let mut p = 1.0;
    for i in 0..x.len() {
        p *= x[i];
    }
    p
}

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

#[differentiable]
fn tanh_recurrence(x: &[f64], w: f64) -> f64 {
    let mut h = 0.0;
    for i in 0..x.len() {
        h = (w * h + x[i]).tanh();
    }
    h
}

#[differentiable]
fn straight_line(x: f64, y: f64) -> f64 {
    let z = x * y;
    z.exp() + x
}

/// The recurrence with exits: `continue` past small elements, `break` at a
/// large one (none in `ramp`: the path that does not exit).
#[differentiable]
fn tanh_recurrence_with_exits(x: &[f64], w: f64) -> f64 {
    let mut h = 0.0;
    for i in 0..x.len() {
        if x[i] > 5.0 {
            break;
        }
        if x[i] < 0.0 {
            continue;
        }
        h = (w * h + x[i]).tanh();
    }
    h
}

fn ramp(n: usize) -> Vec<f64> {
    (0..n).map(|i| 0.9 + 0.2 * (i as f64 / n as f64)).collect()
}

#[test]
fn loop_allocations_do_not_depend_on_the_trip_count() {
    // The primal allocates nothing.
    let (primal, _) = allocations(|| discount(0.01, 10_000));
    assert_eq!(primal, 0, "the primal allocates");

    // Scalar arguments, one loop: at most one stack, allocated once.
    let (small, _) = allocations(|| discount_grad(0.01, 10));
    let (large, _) = allocations(|| discount_grad(0.01, 10_000));
    assert_eq!(
        small, large,
        "discount_grad: {small} allocations at n = 10, {large} at n = 10 000"
    );
    assert!(large <= 1, "discount_grad allocates {large} times");

    // A slice argument: its adjoint, plus at most one stack.
    let (small, _) = allocations(|| product_grad(&ramp(10)).1.len());
    let (large, _) = allocations(|| product_grad(&ramp(10_000)).1.len());
    // (`ramp` itself allocates once inside the closure.)
    assert_eq!(
        small, large,
        "product_grad: {small} at n = 10, {large} at n = 10 000"
    );
    assert!(large <= 1 + 2, "product_grad allocates {} times", large - 1);

    // Rosenbrock keeps nothing per iteration: only the adjoint slice.
    let (small, _) = allocations(|| rosenbrock_grad(&ramp(10)).1.len());
    let (large, _) = allocations(|| rosenbrock_grad(&ramp(10_000)).1.len());
    assert_eq!(
        small, large,
        "rosenbrock_grad: {small} at n = 10, {large} at n = 10 000"
    );
    assert!(
        large <= 1 + 2,
        "rosenbrock_grad allocates {} times",
        large - 1
    );

    // A nonlinear recurrence that needs each iteration's value back.
    let (small, _) = allocations(|| tanh_recurrence_grad(&ramp(10), 0.5).1.len());
    let (large, _) = allocations(|| tanh_recurrence_grad(&ramp(10_000), 0.5).1.len());
    assert_eq!(
        small, large,
        "tanh_recurrence_grad: {small} at n = 10, {large} at n = 10 000"
    );
    assert!(
        large <= 1 + 3,
        "tanh_recurrence_grad allocates {} times",
        large - 1
    );
}

#[test]
fn a_loop_with_exits_keeps_its_reservation() {
    // `break` and `continue` keep the `for` and its known trip count: still
    // one reservation per stack, none per iteration.
    let (small, _) = allocations(|| tanh_recurrence_with_exits_grad(&ramp(10), 0.5).1.len());
    let (large, _) = allocations(|| tanh_recurrence_with_exits_grad(&ramp(10_000), 0.5).1.len());
    assert_eq!(
        small, large,
        "tanh_recurrence_with_exits_grad: {small} at n = 10, {large} at n = 10 000"
    );
    assert!(
        large <= 1 + 3,
        "tanh_recurrence_with_exits_grad allocates {} times",
        large - 1
    );
}

#[test]
fn the_vjp_allocates_in_the_forward_sweep_only_once_per_stack() {
    let x = ramp(5_000);
    let (forward, (value, pullback)) = allocations(|| product_vjp(&x));
    let (reverse, (dx,)) = allocations(|| pullback(1.0));
    assert_eq!(value.to_bits(), product(&x).to_bits());
    assert_eq!(dx.len(), 5_000);
    // Both sweeps run in the forward call (its `_grad_acc`'s, at seed one,
    // into a pooled adjoint): the stack and the adjoint slice are reserved
    // there once each, the pullback only scales; no reallocation anywhere.
    assert!(forward <= 2, "forward sweep: {forward} allocations");
    assert_eq!(reverse, 0, "reverse sweep: {reverse} allocations");
}

#[test]
fn straight_line_code_does_not_allocate() {
    let (count, (v, dx, dy)) = allocations(|| straight_line_grad(0.5, 2.0));
    assert_eq!(count, 0);
    assert_eq!(v.to_bits(), straight_line(0.5, 2.0).to_bits());
    assert_eq!(dx, 2.0 * 1.0f64.exp() + 1.0);
    assert_eq!(dy, 0.5 * 1.0f64.exp());
}
