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
