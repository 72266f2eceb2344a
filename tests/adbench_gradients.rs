//! The ADBench benchmark's gradients are right (issue 37): on small
//! instances of each problem, every contender the bench times agrees with
//! ADBench's Manual derivative ported to Rust, and the Manual one with
//! central differences of the primal. The same checks run, at the bench's
//! own sizes, before `examples/adbench_report.rs` times anything.
//!
//! The problems are the bench's own module, included by path.

#[path = "../benches/adbench/mod.rs"]
#[allow(dead_code)]
mod adbench;

use adbench::{data, gmm};

mod alloc_support;

#[test]
fn gmm_gradients_agree_with_manual_and_central_differences() {
    for (d, k, n) in [(2, 5, 30), (5, 3, 20), (10, 4, 12)] {
        let inp = data::gmm(d, k, n);
        if let Err(e) = gmm::check(&inp, usize::MAX) {
            panic!("GMM d={d} K={k} n={n}: {e}");
        }
    }
}

#[test]
fn ba_jacobian_agrees_with_manual_and_central_differences() {
    for (n, m, p) in [(3, 5, 12), (7, 11, 40)] {
        let inp = data::ba(n, m, p);
        if let Err(e) = adbench::ba::check(&inp, usize::MAX) {
            panic!("BA n={n} m={m} p={p}: {e}");
        }
    }
}

#[test]
fn lstm_gradients_agree_with_manual_and_central_differences() {
    for (l, c) in [(1, 4), (2, 6), (3, 5)] {
        let inp = data::lstm(l, c);
        if let Err(e) = adbench::lstm::check(&inp, usize::MAX) {
            panic!("LSTM l={l} c={c}: {e}");
        }
    }
}

/// `_jacobian_acc` into a reused block assembles BA's whole sparse
/// Jacobian without allocating, once warmed up (the compressed rows keep
/// their capacity; the slices' adjoints come from the thread's pool).
#[test]
fn ba_jacobian_from_jacobian_acc_allocates_nothing() {
    let inp = data::ba(3, 5, 12);
    let mut out = adbench::ba::BaOutput::new(&inp);
    let mut block = adbench::ba::block();
    adbench::ba::ours_acc(&inp, &mut out, &mut block);
    let ((), n) = alloc_support::allocations_during(|| {
        adbench::ba::ours_acc(std::hint::black_box(&inp), &mut out, &mut block)
    });
    assert_eq!(
        n, 0,
        "BA's Jacobian from `_jacobian_acc` allocated {n} times"
    );
}
