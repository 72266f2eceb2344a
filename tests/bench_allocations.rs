//! Heap allocations per call of the benchmarked `NAME_grad`s, counted
//! deterministically with a counting global allocator: none for
//! straight-line scalar code (Black–Scholes, with its calls and branches),
//! and for loops a count that depends on the number of stacks and slice
//! adjoints, not on the trip count.
//!
//! `tests/alloc_free.rs` and `tests/control_alloc.rs` cover small
//! functions of their own; this file covers the functions the bench times
//! (`benches/cases`, included by path), so the suite's figures are for
//! code whose allocation behaviour is pinned.
//!
//! The counter is thread-local and switched on only around the measured
//! call, after a warm-up call, with the inputs built outside the window.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;

#[path = "../benches/cases/mod.rs"]
#[allow(dead_code)]
mod cases;

use cases::{black_scholes, bond, dense, rosenbrock, zspread};

struct Counting;

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

fn note_allocation() {
    // `try_with`: the TLS may already be gone while the thread exits.
    if ON.try_with(Cell::get).unwrap_or(false) {
        let _ = COUNT.try_with(|c| c.set(c.get() + 1));
    }
}

// SAFETY: every method forwards to `System` unchanged; the counter only
// touches `const`-initialized thread-locals, which neither allocate nor
// register destructors.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A stack that grows shows up here.
        note_allocation();
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The allocations (and reallocations) `f` makes on this thread, after one
/// warm-up call; the result is dropped outside the window.
fn allocations<R>(mut f: impl FnMut() -> R) -> usize {
    drop(black_box(f()));
    COUNT.with(|c| c.set(0));
    ON.with(|on| on.set(true));
    let r = black_box(f());
    ON.with(|on| on.set(false));
    drop(r);
    COUNT.with(Cell::get)
}

#[test]
fn the_counter_sees_allocations() {
    assert_eq!(allocations(|| vec![1.0_f64; 8]), 1);
}

#[test]
fn black_scholes_grad_does_not_allocate() {
    let inp = black_scholes::Inputs::new();
    assert_eq!(allocations(|| black_scholes::primal(black_box(&inp))), 0);
    assert_eq!(
        allocations(|| black_scholes::ours(black_box(&inp))),
        0,
        "call_price_grad (two calls of norm_cdf's VJP, branches) allocates"
    );
    // Its callee on both branches (the rational and the continued fraction).
    for x in [-9.0, -1.0, 0.3, 8.0] {
        assert_eq!(
            allocations(|| black_scholes::example::norm_cdf_grad(black_box(x))),
            0,
            "norm_cdf_grad({x}) allocates"
        );
    }
}

#[test]
fn rosenbrock_grad_allocates_the_same_at_n_10_and_n_1000() {
    let (small, large) = (rosenbrock::Inputs::new(10), rosenbrock::Inputs::new(1000));
    let a = allocations(|| rosenbrock::ours(black_box(&small)));
    let b = allocations(|| rosenbrock::ours(black_box(&large)));
    assert_eq!(
        a, b,
        "rosenbrock_grad: {a} allocations at n = 10, {b} at n = 1000"
    );
    // The adjoint of `x` is the result; Rosenbrock needs no stack.
    assert_eq!(b, 1, "rosenbrock_grad allocates {b} times");
    // The hand-written gradient allocates its result only.
    assert_eq!(allocations(|| rosenbrock::hand(black_box(&large))), 1);
}

#[test]
fn bond_grad_allocates_the_rate_adjoint_only() {
    let inp = bond::Inputs::new();
    let n = allocations(|| bond::ours(black_box(&inp)));
    // One adjoint slice (r; cf and t are constants): the running sum's
    // loop is fused, its forward sweep fills that adjoint as it goes, so
    // nothing is kept for a reverse loop.
    assert_eq!(n, 1, "bond_price_grad allocates {n} times");
    // And not more for a longer bond.
    let long = bond::Inputs {
        r: [&inp.r[..], &inp.r[..], &inp.r[..]].concat(),
        z: inp.z,
        cf: [&inp.cf[..], &inp.cf[..], &inp.cf[..]].concat(),
        t: [&inp.t[..], &inp.t[..], &inp.t[..]].concat(),
    };
    assert_eq!(allocations(|| bond::ours(black_box(&long))), n);
}

#[test]
fn dense_loops_grad_allocation_count_does_not_grow_with_the_layer() {
    let inp = dense::loops::Inputs::new();
    let n = allocations(|| dense::loops::ours(black_box(&inp)));
    // Three adjoint slices (w, x, b) and at most one stack per loop.
    assert!(n <= 3 + 2, "dense_loops_grad allocates {n} times");
    // A layer of twice the rows and columns: the same count.
    let m = 2 * dense::SIZE;
    let big = dense::loops::Inputs {
        w: cases::lcg_vec(m * m, 1, -0.2, 0.2),
        x: cases::lcg_vec(m, 2, -1.0, 1.0),
        b: cases::lcg_vec(m, 3, -0.5, 0.5),
    };
    let n_big = allocations(|| dense::loops::ours(black_box(&big)));
    assert_eq!(n, n_big, "{n} allocations at 32×32, {n_big} at 64×64");
}

#[test]
fn dense_nalgebra_grad_allocates_a_fixed_number_of_matrices() {
    let inp = dense::matrix::Inputs::new();
    let primal = allocations(|| dense::matrix::primal(black_box(&inp)));
    let ours = allocations(|| dense::matrix::ours(black_box(&inp)));
    let hand = allocations(|| dense::matrix::hand(black_box(&inp)));
    // nalgebra allocates every intermediate; what matters here is that the
    // count is a constant, not one per element. The primal needs two (W·x,
    // the tanh map), the hand-written gradient three (d, dW, dx). The
    // generated code made 15 before its adjoints were accumulated in place;
    // now 3, the hand-written count: the forward's W·x (whose buffer `+ b`
    // and the tanh map reuse; the sum's seed stays a scalar, the tanh
    // adjoint is written into the mapped result's buffer, W·x's adjoint
    // borrows it and b's adjoint takes it at the end), dW and dx.
    assert_eq!(primal, 2, "the primal allocates {primal} times");
    assert_eq!(hand, 3, "the hand-written gradient allocates {hand} times");
    assert_eq!(ours, 3, "dense_nalgebra_grad allocates {ours} times");
    // The same count for a layer four times the size.
    let m = 2 * dense::SIZE;
    let big = dense::matrix::Inputs {
        w: nalgebra::DMatrix::from_fn(m, m, |i, j| 0.01 * (i as f64 - j as f64)),
        x: nalgebra::DVector::from_fn(m, |i, _| 0.1 * i as f64),
        b: nalgebra::DVector::from_element(m, 0.1),
    };
    let ours_big = allocations(|| dense::matrix::ours(black_box(&big)));
    assert_eq!(
        ours, ours_big,
        "{ours} allocations at 32×32, {ours_big} at 64×64"
    );
}

#[test]
fn zspread_grad_allocates_no_more_than_one_residual_gradient() {
    let inp = zspread::Inputs::new();
    assert_eq!(allocations(|| zspread::primal(black_box(&inp))), 0);
    let n = allocations(|| zspread::ours(black_box(&inp)));
    // The residual's pullback: the adjoint of `r` from the call of
    // bond_price, bond_price's stack of discount factors, and the caller's
    // own adjoint of `r` (three since that stack; two before).
    assert!(n <= 3, "z_spread_grad allocates {n} times");
}
