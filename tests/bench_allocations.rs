//! Heap allocations per call of the benchmarked gradients, counted
//! deterministically with a counting global allocator, after a warm-up
//! call: `NAME_grad_acc` allocates nothing in every case but the nalgebra
//! layer (whose primal itself allocates), loops included (their stacks and
//! slice adjoints come from the thread's pool, `autograd_runtime::pool`);
//! `NAME_grad` allocates its returned adjoints only, as the hand-written
//! gradient does.
//!
//! `tests/alloc_free.rs` and `tests/control_alloc.rs` cover small
//! functions of their own; this file covers the functions the bench times
//! (`benches/cases`, included by path), so the suite's figures are for
//! code whose allocation behaviour is pinned.
//!
//! The counter (`alloc_support`) is thread-local and read only around the
//! measured call, after a warm-up call, with the inputs built outside the
//! window.

use std::hint::black_box;

#[path = "../benches/cases/mod.rs"]
#[allow(dead_code)]
mod cases;

use cases::{black_scholes, bond, dense, least_squares, monte_carlo, rosenbrock, zspread};

mod alloc_support;

/// The allocations (and reallocations) `f` makes on this thread, after one
/// warm-up call; the result is dropped outside the window.
fn allocations<R>(mut f: impl FnMut() -> R) -> usize {
    drop(black_box(f()));
    let (r, n) = alloc_support::allocations_during(|| black_box(f()));
    drop(r);
    n
}

/// Asserts that case module `$m`'s `ours_acc` and `hand_acc` allocate
/// nothing per call once warmed up, on `$inp`.
macro_rules! acc_allocates_nothing {
    ($($m:ident)::+, $inp:expr) => {{
        use $($m)::+ as m;
        let inp = $inp;
        let mut buf = m::buffers(&inp);
        let name = stringify!($($m)::+);
        let hand = allocations(|| m::hand_acc(black_box(&inp), black_box(&mut buf)));
        assert_eq!(hand, 0, "{name}: the hand-written gradient into buffers allocates {hand} times");
        let ours = allocations(|| m::ours_acc(black_box(&inp), black_box(&mut buf)));
        assert_eq!(ours, 0, "{name}: `_grad_acc` allocates {ours} times per call");
    }};
}

#[test]
fn the_counter_sees_allocations() {
    assert_eq!(allocations(|| vec![1.0_f64; 8]), 1);
}

#[test]
fn grad_acc_of_every_scalar_and_slice_case_does_not_allocate() {
    for n in cases::ROSENBROCK_SIZES {
        acc_allocates_nothing!(rosenbrock, rosenbrock::Inputs::new(n));
    }
    acc_allocates_nothing!(black_scholes, black_scholes::Inputs::new());
    acc_allocates_nothing!(bond, bond::Inputs::new());
    // One warm-up call: the slice adjoints are the caller's buffers, so
    // the only pooled buffer is the stack of each row's `tanh`.
    acc_allocates_nothing!(dense::loops, dense::loops::Inputs::new());
    acc_allocates_nothing!(zspread, zspread::Inputs::new());
    acc_allocates_nothing!(least_squares, least_squares::Inputs::new());
    acc_allocates_nothing!(monte_carlo, monte_carlo::Inputs::new());
}

#[test]
fn grad_acc_allocates_nothing_over_many_calls_of_several_functions() {
    // Calls of different functions interleaved, as an optimizer evaluating
    // several losses does: each takes its stacks from the pool the others
    // fill.
    let (b_in, d_in, m_in) = (
        bond::Inputs::new(),
        dense::loops::Inputs::new(),
        monte_carlo::Inputs::new(),
    );
    let (mut b_buf, mut d_buf, mut m_buf) = (
        bond::buffers(&b_in),
        dense::loops::buffers(&d_in),
        monte_carlo::buffers(&m_in),
    );
    let n = allocations(|| {
        for _ in 0..100 {
            bond::ours_acc(black_box(&b_in), &mut b_buf);
            dense::loops::ours_acc(black_box(&d_in), &mut d_buf);
            monte_carlo::ours_acc(black_box(&m_in), &mut m_buf);
        }
    });
    assert_eq!(n, 0, "300 calls allocated {n} times");
}

#[test]
fn grad_acc_of_a_longer_loop_than_the_warm_up_allocates_its_stack_once_then_nothing() {
    // The bond's fused loop keeps no stack and its adjoint is the caller's
    // buffer: four times the curve allocates nothing, even the first time.
    let long = bond::Inputs {
        r: [&bond::Inputs::new().r[..]; 4].concat(),
        z: 0.01,
        cf: [&bond::Inputs::new().cf[..]; 4].concat(),
        t: [&bond::Inputs::new().t[..]; 4].concat(),
    };
    let mut buf = bond::buffers(&long);
    bond::ours_acc(
        &bond::Inputs::new(),
        &mut bond::buffers(&bond::Inputs::new()),
    );
    let (_, n) = alloc_support::allocations_during(|| bond::ours_acc(black_box(&long), &mut buf));
    assert_eq!(n, 0, "the long bond's first call");
    // The slice dense layer keeps each row's `tanh` on a stack: twice the
    // rows need a stack twice as long, allocated once ...
    let m = 2 * dense::SIZE;
    let big = dense::loops::Inputs {
        w: (0..m * m).map(|k| 0.01 * ((k % 17) as f64 - 8.0)).collect(),
        x: (0..m).map(|i| 0.1 * i as f64).collect(),
        b: vec![0.1; m],
    };
    let small = dense::loops::Inputs::new();
    dense::loops::ours_acc(&small, &mut dense::loops::buffers(&small));
    let mut buf = dense::loops::buffers(&big);
    let (_, n) =
        alloc_support::allocations_during(|| dense::loops::ours_acc(black_box(&big), &mut buf));
    assert_eq!(n, 1, "the larger layer's first call");
    // ... and kept.
    assert_eq!(
        allocations(|| dense::loops::ours_acc(black_box(&big), &mut buf)),
        0
    );
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
    let inp = monte_carlo::Inputs::new();
    assert_eq!(
        allocations(|| monte_carlo::ours(black_box(&inp))),
        0,
        "path_value_grad (a 252-step loop's stack and cache) allocates"
    );
}

#[test]
fn grad_allocates_its_result_only_as_the_hand_written_gradient_does() {
    // One adjoint slice per differentiable slice argument, whatever the
    // trip count: the loop stacks come from the pool.
    for n in cases::ROSENBROCK_SIZES {
        let inp = rosenbrock::Inputs::new(n);
        assert_eq!(
            allocations(|| rosenbrock::ours(black_box(&inp))),
            1,
            "rosenbrock n = {n}"
        );
        assert_eq!(allocations(|| rosenbrock::hand(black_box(&inp))), 1);
    }
    let inp = bond::Inputs::new();
    assert_eq!(allocations(|| bond::ours(black_box(&inp))), 1, "bond: dr");
    assert_eq!(allocations(|| bond::hand(black_box(&inp))), 1);
    let inp = dense::loops::Inputs::new();
    assert_eq!(
        allocations(|| dense::loops::ours(black_box(&inp))),
        3,
        "dense: dW, dx, db"
    );
    assert_eq!(allocations(|| dense::loops::hand(black_box(&inp))), 3);
    let inp = least_squares::Inputs::new();
    assert_eq!(allocations(|| least_squares::ours(black_box(&inp))), 1);
    assert_eq!(allocations(|| least_squares::hand(black_box(&inp))), 1);
    // The residual's pullback's adjoint of `r` goes back to the pool when
    // the caller adds it into its own: dr only.
    let inp = zspread::Inputs::new();
    assert_eq!(allocations(|| zspread::primal(black_box(&inp))), 0);
    assert_eq!(
        allocations(|| zspread::ours(black_box(&inp))),
        1,
        "zspread: dr"
    );
    assert_eq!(allocations(|| zspread::hand(black_box(&inp))), 1);
}

#[test]
fn dense_nalgebra_grad_allocates_a_fixed_number_of_matrices() {
    let inp = dense::matrix::Inputs::new();
    let primal = allocations(|| dense::matrix::primal(black_box(&inp)));
    let ours = allocations(|| dense::matrix::ours(black_box(&inp)));
    let hand = allocations(|| dense::matrix::hand(black_box(&inp)));
    let mut buf = dense::matrix::buffers(&inp);
    let ours_acc = allocations(|| dense::matrix::ours_acc(black_box(&inp), &mut buf));
    let hand_acc = allocations(|| dense::matrix::hand_acc(black_box(&inp), &mut buf));
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
    // Into buffers: nothing by hand (a scratch vector for d), and the same
    // three for `_grad_acc`, whose W·x, dW and dx are nalgebra's own
    // allocations, not the pool's.
    assert_eq!(
        hand_acc, 0,
        "the hand-written gradient into buffers allocates {hand_acc} times"
    );
    assert_eq!(
        ours_acc, 3,
        "dense_nalgebra_grad_acc allocates {ours_acc} times"
    );
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
