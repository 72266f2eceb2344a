//! Heap allocations per `_grad_acc` call of ADBench's GMM objective as a
//! user ports it (`benches/adbench/gmm.rs`: local `Vec`s carried through
//! nested loops), counted after a warm-up call. Pinned so that the save
//! plan of a nested loop cannot go back to cloning a carried `Vec` at
//! every entry of an inner loop: a loop that writes its carried array in
//! place takes it by value, and only the entry values a reverse sweep
//! reads are copied, onto the loop's stack.

#[path = "../benches/adbench/mod.rs"]
#[allow(dead_code)]
mod adbench;

mod alloc_support;

use adbench::{data, gmm};
use std::hint::black_box;

/// The allocations one call of `f` makes on this thread after a warm-up
/// call.
fn allocations<R>(mut f: impl FnMut() -> R) -> usize {
    drop(black_box(f()));
    let (r, n) = alloc_support::allocations_during(|| black_box(f()));
    drop(r);
    n
}

#[test]
fn gmm_grad_acc_copies_only_the_entry_values_its_reverse_reads() {
    for (d, k, n) in [(2, 5, 30), (5, 3, 20), (10, 4, 12), (3, 20, 10)] {
        let inp = data::gmm(d, k, n);
        let mut j = vec![0.0; inp.n_params()];
        let count = allocations(|| gmm::ours_acc(black_box(&inp), black_box(&mut j)));
        // Nothing per point nor per component. The point loop keeps
        // `main_term` (K floats a point) for the reverse of
        // `logsumexp(&main_term)`, instead of running the component loop
        // again per point to recover it, as rows of one pooled buffer,
        // popped into one reused `Vec`. The reverse of the component loop
        // starts `xcentered` and `qxcentered` from two buffers (their
        // entry values are dead: the body overwrites them whole) passed on
        // from one component and one point to the next. `logsumexp`'s
        // adjoint comes from the buffer pool; the adjoints of the carried
        // arrays pass from one component's reverse to the next; the
        // forward sweep hands the point loop's buffers to the component
        // loop. The preprocessing loop keeps the entry values of `qdiags`
        // and `sum_qs` as rows of one pooled buffer, and its reverse hands
        // each popped row, once its inner loop has run over it again, back
        // for the next. Per call: a few buffers (the five local `vec!`s,
        // copies of the point loop's three as it starts, since its
        // reverse starts from them, five zero adjoints). Cloning every inner loop's carried `Vec` at
        // its entry made 3 795, 2 515 and 3 186 allocations on the
        // first three sizes; consuming them, 1 045, 643 and 746; buffers for dead
        // entry values, 867, 423 and 312; keeping `main_term` and reusing
        // the buffers and adjoints, 235, 161 and 107; handing the buffers
        // on in the forward sweep, 175, 121 and 83; passing the component
        // loop's buffers from one point to the next, 57, 43 and 37;
        // keeping `main_term` as rows, 27, 23 and 25 (2K + 17); keeping the
        // preprocessing loop's entry values as rows, 17 on all four;
        // moving `qdiags` and `sum_qs` into that loop, whose reverse pops
        // its entry values rather than starting from them, 15. The
        // preprocessing loop's inner loop is now taped for the whole loop
        // (its forward run caches the exps of every component, and the
        // reverse pops them without running it again, so no entry rows
        // are kept): its cache is one buffer for all components, which
        // doubles as it grows, each size taken from and given back to the
        // pool; one of those sizes is not in the pool a call at (2, 5,
        // 30): 16.
        let bound = 16;
        assert!(
            count <= bound,
            "GMM d={d} K={k} n={n}: {count} allocations per `_grad_acc` call, more than {bound}"
        );
    }
}
