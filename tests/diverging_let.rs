//! `return`, `break` and `continue` as one arm of an `if` whose value a
//! `let` binds: `let x = if c { a } else { return 0.0 };`.
//!
//! Expected derivatives: closed forms and central differences (step 1e-6,
//! tolerance 1e-7 absolute).

#![allow(clippy::needless_range_loop)]

use autograd::differentiable;

/// Zero below the barrier, else a log-moneyness payoff.
#[differentiable]
fn barrier(s: f64, k: f64) -> f64 {
    let m = if s > 0.8 * k {
        (s / k).ln()
    } else {
        return 0.0;
    };
    m * m + s
}

/// The sum of the logs of the entries until the first non-positive one,
/// skipping those above 10.
#[differentiable]
fn log_sum(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        let l = if x[i] <= 0.0 { break } else { x[i].ln() };
        let w = if x[i] > 10.0 { continue } else { l * x[i] };
        s += w;
    }
    s
}

fn central(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    let h = 1e-6;
    (f(x + h) - f(x - h)) / (2.0 * h)
}

#[test]
fn return_in_a_let() {
    for (s, k) in [(1.2, 1.0), (0.5, 1.0), (0.9, 1.0)] {
        let (v, ds, dk) = barrier_grad(s, k);
        assert_eq!(v, barrier(s, k));
        assert!((ds - central(|x| barrier(x, k), s)).abs() < 1e-7, "s = {s}");
        assert!((dk - central(|x| barrier(s, x), k)).abs() < 1e-7, "k = {k}");
    }
    // Below the barrier: the constant 0.
    assert_eq!(barrier_grad(0.5, 1.0), (0.0, 0.0, 0.0));
}

#[test]
fn break_and_continue_in_a_let() {
    let x = [2.0, 12.0, 0.5, -1.0, 3.0];
    let (v, dx) = log_sum_grad(&x);
    assert_eq!(v, log_sum(&x));
    // d/dx (x ln x) = ln x + 1 for the entries summed (0 and 2); 12 is
    // skipped, -1 stops the loop, 3 is never reached.
    let want = [2f64.ln() + 1.0, 0.0, 0.5f64.ln() + 1.0, 0.0, 0.0];
    for i in 0..5 {
        assert!(
            (dx[i] - want[i]).abs() < 1e-12,
            "x[{i}]: {} vs {}",
            dx[i],
            want[i]
        );
    }
}
