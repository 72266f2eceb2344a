//! Heap allocations per `_grad_acc` call of ADBench's GMM objective as a
//! user ports it (`benches/adbench/gmm.rs`: local `Vec`s carried through
//! nested loops), counted after warm-up calls. Pinned so that the save
//! plan of a nested loop cannot go back to cloning a carried `Vec` at
//! every entry of an inner loop: a loop that writes its carried array in
//! place takes it by value, and only the entry values a reverse sweep
//! reads are copied, onto the loop's stack; and so that the buffers a
//! call owns go back to the thread's pool: once warmed up, a call
//! allocates nothing.

#[path = "../benches/adbench/mod.rs"]
#[allow(dead_code)]
mod adbench;

mod alloc_support;

use adbench::{data, gmm};
use std::hint::black_box;

/// The most allocations any of three calls of `f` makes after two
/// warm-up calls, on a thread of its own: its buffer pool starts empty, so
/// the count is not what earlier sizes left there (a call of new sizes may
/// take a block an older size left, and the next call sort it out). Two
/// warm-up calls, not one: a taped loop's cache grows by doubling through
/// the pool, and the first call's blocks come back in another order than
/// the second call asks for them; from the third call on the pool is in
/// the same state after every call.
fn allocations<R>(f: impl FnMut() -> R + Send) -> usize {
    std::thread::scope(|s| {
        s.spawn(|| {
            let mut f = f;
            for _ in 0..2 {
                drop(black_box(f()));
            }
            (0..3)
                .map(|_| {
                    let (r, n) = alloc_support::allocations_during(|| black_box(f()));
                    drop(r);
                    n
                })
                .max()
                .unwrap_or(0)
        })
        .join()
        .expect("the calls do not panic")
    })
}

#[test]
fn gmm_grad_acc_allocates_nothing_after_warm_up_calls() {
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
        // for the next. The five local `vec!`s, the copies of the point
        // loop's three as it starts (its reverse starts from them), the
        // five zero adjoints and the component loop's two first copies
        // come from the pool and go back to it as the call returns. Cloning every inner loop's carried `Vec` at
        // its entry made 3 795, 2 515 and 3 186 allocations on the
        // first three sizes; consuming them, 1 045, 643 and 746; buffers for dead
        // entry values, 867, 423 and 312; keeping `main_term` and reusing
        // the buffers and adjoints, 235, 161 and 107; handing the buffers
        // on in the forward sweep, 175, 121 and 83; passing the component
        // loop's buffers from one point to the next, 57, 43 and 37;
        // keeping `main_term` as rows, 27, 23 and 25 (2K + 17); keeping the
        // preprocessing loop's entry values as rows, 17 on all four;
        // moving `qdiags` and `sum_qs` into that loop, whose reverse pops
        // its entry values rather than starting from them, 15; giving
        // the buffers the call still owns back to the pool as it returns
        // (the local `vec!`s, the copies and the zero adjoints taken from
        // it), 0; taping the preprocessing loop's inner loop (its cache
        // grows through the pool), 1 after one warm-up call, 0 after two.
        assert_eq!(
            count, 0,
            "GMM d={d} K={k} n={n}: {count} allocations per `_grad_acc` call"
        );
    }
}
