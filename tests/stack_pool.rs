//! Loop stacks and slice adjoints come from a per-thread pool
//! (`autograd_runtime::pool`) and go back to it when dropped. These tests
//! pin what that must not break: recursion and calls between
//! differentiable functions (several stacks live at once), a panic that
//! unwinds through a half-filled stack, several threads, a pullback run on
//! another thread than its forward sweep, `f32`, a generic `T: Float` and
//! the `Dual` scalar of second order; and that a warmed-up call allocates
//! nothing. Expected derivatives are central differences of the primal
//! (step 1e-6, tolerance 1e-7 relative) or the same call's earlier result.

// Differentiable bodies index slices in `for i in a..b` loops.
#![allow(clippy::needless_range_loop, clippy::assign_op_pattern)]

use std::hint::black_box;
use std::panic::{AssertUnwindSafe, catch_unwind};

use autograd::differentiable;
use autograd::num_traits::Float;

mod alloc_support;
#[path = "fd_support/mod.rs"]
mod fd_support;
use fd_support::{central, central_slice};

/// The step of the central differences.
const H: f64 = 1e-6;
use alloc_support::allocations_during as allocations;

fn assert_close(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= 1e-7 * (1.0 + w.abs()),
            "{what}: component {i} is {g}, central differences say {w}"
        );
    }
}

/// s ← sin(s·xᵢ + c) from s = c: the reverse sweep pops every entry s.
#[differentiable]
fn chain(x: &[f64], c: f64) -> f64 {
    let mut s = c;
    for i in 0..x.len() {
        s = (s * x[i] + c).sin();
    }
    s
}

fn point(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| 0.3 + 0.9 * ((i * 7 % 11) as f64 / 11.0))
        .collect()
}

fn check_chain(x: &[f64], c: f64) {
    let (v, dx, dc) = chain_grad(x, c);
    assert_eq!(v, chain(x, c));
    assert_close(&dx, &central_slice(|x| chain(x, c), x, H), "∂chain/∂x");
    assert_close(&[dc], &[central(|c| chain(x, c), c, H)], "∂chain/∂c");
}

#[test]
fn a_warmed_up_grad_acc_with_a_stack_allocates_nothing() {
    let x = point(200);
    let (mut dx, mut dc) = (vec![0.0; 200], 0.0);
    chain_grad_acc(&x, 0.4, &mut dx, &mut dc);
    let (_, n) = allocations(|| chain_grad_acc(black_box(&x), 0.4, &mut dx, &mut dc));
    assert_eq!(n, 0, "chain_grad_acc allocated {n} times");
    // Twice the gradient, bit for bit.
    let (_, gx, gc) = chain_grad(&x, 0.4);
    assert_eq!(dc, 2.0 * gc);
    assert!(dx.iter().zip(&gx).all(|(a, g)| *a == 2.0 * g));
    check_chain(&x, 0.4);
}

/// Three calls of [`chain`] in a loop: the caller's stack and its callees'
/// (each recorded pullback holds one) are live together.
#[differentiable]
fn calls_in_a_loop(x: &[f64], c: f64) -> f64 {
    let mut t = c;
    for _ in 0..3 {
        t = chain(x, t) * 0.5 + t;
    }
    t
}

/// [`chain`] nested `depth` deep by recursion: one live stack per level.
#[differentiable]
fn recursive(x: &[f64], c: f64, depth: usize) -> f64 {
    if depth == 0 {
        chain(x, c)
    } else {
        chain(x, recursive(x, c, depth - 1))
    }
}

#[test]
fn stacks_live_at_once_in_calls_and_recursion_stay_apart() {
    let x = point(30);
    for _ in 0..3 {
        let (v, dx, dc) = calls_in_a_loop_grad(&x, 0.2);
        assert_eq!(v, calls_in_a_loop(&x, 0.2));
        assert_close(
            &dx,
            &central_slice(|x| calls_in_a_loop(x, 0.2), &x, H),
            "calls ∂x",
        );
        assert_close(
            &[dc],
            &[central(|c| calls_in_a_loop(&x, c), 0.2, H)],
            "calls ∂c",
        );

        let (v, dx, dc) = recursive_grad(&x, 0.7, 4);
        assert_eq!(v, recursive(&x, 0.7, 4));
        assert_close(
            &dx,
            &central_slice(|x| recursive(x, 0.7, 4), &x, H),
            "recursion ∂x",
        );
        assert_close(
            &[dc],
            &[central(|c| recursive(&x, c, 4), 0.7, H)],
            "recursion ∂c",
        );
    }
}

/// The loop reads `x[i]` for i < n: n beyond the slice panics half way
/// through the forward sweep, with the stack partly filled.
#[differentiable]
fn first_n(x: &[f64], #[constant] n: usize) -> f64 {
    let mut s = 1.0;
    for i in 0..n {
        s = (s * x[i]).sin() + s;
    }
    s
}

#[test]
fn a_panic_mid_loop_gives_the_stack_back_empty() {
    let x = point(50);
    let (mut dx, warm) = (vec![0.0; 50], first_n_grad(&x, 50));
    first_n_grad_acc(&x, 50, &mut dx);
    let unwound = catch_unwind(AssertUnwindSafe(|| first_n_grad(black_box(&x), 80)));
    assert!(unwound.is_err(), "an index past the slice panics");
    // The unwound stack went back to the pool (a fresh one would
    // allocate), holding nothing of the aborted call.
    let (got, n) = allocations(|| {
        let dx = black_box(&mut dx);
        dx.fill(0.0);
        first_n_grad_acc(black_box(&x), 50, dx)
    });
    assert_eq!(n, 0, "the call after the panic allocated {n} times");
    assert_eq!(got, warm.0);
    assert_eq!(dx, warm.1);
    assert_close(
        &dx,
        &central_slice(|x| first_n(x, 50), &x, H),
        "after the panic",
    );
}

#[test]
fn threads_have_pools_of_their_own() {
    let inputs: Vec<(Vec<f64>, f64)> = (0..4)
        .map(|k| (point(40 + 10 * k), 0.1 * k as f64))
        .collect();
    let expected: Vec<_> = inputs.iter().map(|(x, c)| chain_grad(x, *c)).collect();
    std::thread::scope(|s| {
        for ((x, c), want) in inputs.iter().zip(&expected) {
            s.spawn(move || {
                let mut dx = vec![0.0; x.len()];
                for round in 1..=200 {
                    let mut dc = 0.0;
                    dx.fill(0.0);
                    let v = chain_grad_acc(x, *c, &mut dx, &mut dc);
                    assert_eq!((v, &dx, dc), (want.0, &want.1, want.2), "round {round}");
                }
            });
        }
    });
}

#[test]
fn a_pullback_runs_and_drops_its_stack_on_another_thread() {
    let x = point(64);
    let want = chain_grad(&x, 0.3);
    let (value, pullback) = chain_vjp(&x, 0.3);
    let (dx, dc) = std::thread::scope(|s| s.spawn(move || pullback(2.0)).join().unwrap());
    assert_eq!(value, want.0);
    assert!(dx.iter().zip(&want.1).all(|(a, g)| *a == 2.0 * g));
    assert_eq!(dc, 2.0 * want.2);
    // This thread's pool still serves this thread.
    check_chain(&x, 0.3);
}

/// [`chain`] in single precision.
#[differentiable]
fn chain32(x: &[f32], c: f32) -> f32 {
    let mut s = c;
    for i in 0..x.len() {
        s = (s * x[i] + c).sin();
    }
    s
}

/// [`chain`] for any `Float`.
#[differentiable]
fn chain_generic<T: Float>(x: &[T], c: T) -> T {
    let mut s = c;
    for i in 0..x.len() {
        s = (s * x[i] + c).sin();
    }
    s
}

#[test]
fn f32_and_generic_stacks_are_pooled_too() {
    let x = point(100);
    let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let (mut d32, mut dc32) = (vec![0.0_f32; 100], 0.0_f32);
    chain32_grad_acc(&x32, 0.4, &mut d32, &mut dc32);
    let (_, n) = allocations(|| chain32_grad_acc(black_box(&x32), 0.4, &mut d32, &mut dc32));
    assert_eq!(n, 0, "chain32_grad_acc allocated {n} times");
    let (_, gx, gc) = chain_grad(&x, 0.4);
    assert!(((dc32 / 2.0) as f64 - gc).abs() <= 1e-4 * (1.0 + gc.abs()));
    for (a, g) in d32.iter().zip(&gx) {
        assert!(
            ((a / 2.0) as f64 - g).abs() <= 1e-4 * (1.0 + g.abs()),
            "{a} vs {g}"
        );
    }

    let (mut dg, mut dcg) = (vec![0.0; 100], 0.0);
    chain_generic_grad_acc(&x, 0.4, &mut dg, &mut dcg);
    let (_, n) = allocations(|| chain_generic_grad_acc(black_box(&x), 0.4, &mut dg, &mut dcg));
    assert_eq!(n, 0, "chain_generic_grad_acc::<f64> allocated {n} times");
    assert_eq!(dcg, 2.0 * gc);
    assert!(dg.iter().zip(&gx).all(|(a, g)| *a == 2.0 * g));
}

/// [`chain`] with second order: the Hessian-vector product runs the
/// reverse sweep on `Dual` numbers, with a stack of them.
#[differentiable(hessian)]
fn chain_h(x: &[f64], c: f64) -> f64 {
    let mut s = c;
    for i in 0..x.len() {
        s = (s * x[i] + c).sin();
    }
    s
}

#[test]
fn dual_stacks_are_pooled_and_give_the_same_hvp_every_call() {
    let x = point(25);
    let v: Vec<f64> = (0..25).map(|i| ((i % 3) as f64 - 1.0) * 0.5).collect();
    let first = chain_h_hvp(&x, 0.4, &v, 0.25);
    // H·v by central differences of the gradient along (v, 0.25).
    let h = 1e-5;
    let grad_at = |t: f64| {
        let y: Vec<f64> = x.iter().zip(&v).map(|(a, b)| a + t * b).collect();
        let (_, gx, gc) = chain_h_grad(&y, 0.4 + t * 0.25);
        (gx, gc)
    };
    let ((gp, cp), (gm, cm)) = (grad_at(h), grad_at(-h));
    let hv: Vec<f64> = gp
        .iter()
        .zip(&gm)
        .map(|(p, m)| (p - m) / (2.0 * h))
        .collect();
    for (got, want) in first.3.iter().zip(&hv) {
        assert!(
            (got - want).abs() <= 1e-6 * (1.0 + want.abs()),
            "{got} vs {want}"
        );
    }
    let hc = (cp - cm) / (2.0 * h);
    assert!(
        (first.4 - hc).abs() <= 1e-6 * (1.0 + hc.abs()),
        "{} vs {hc}",
        first.4
    );
    for _ in 0..3 {
        assert_eq!(chain_h_hvp(&x, 0.4, &v, 0.25), first);
    }
}
