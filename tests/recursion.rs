//! A `#[differentiable]` function that calls itself in a branch: the
//! gradient costs time linear in the recursion depth (the forward sweep
//! records each level's pullback instead of the reverse sweep recomputing
//! the recursion below it at every level), and matches the closed form.

use std::cell::Cell;

use autograd::differentiable;

/// Central difference of `f` at `x` with step `h`.
fn central(f: impl Fn(f64) -> f64, x: f64, h: f64) -> f64 {
    (f(x + h) - f(x - h)) / (2.0 * h)
}

/// sin applied n times.
#[differentiable]
fn nested_sin(x: f64, n: usize) -> f64 {
    if n == 0 {
        x
    } else {
        nested_sin(x, n - 1).sin()
    }
}

/// d/dx sinⁿ(x) = Π cos(sinᵏ(x)), k = 0..n.
fn nested_sin_derivative(x: f64, n: usize) -> f64 {
    let (mut s, mut d) = (x, 1.0);
    for _ in 0..n {
        d *= s.cos();
        s = s.sin();
    }
    d
}

#[test]
fn gradient_of_a_recursion_is_the_chain_rule_through_every_level() {
    for n in [0, 1, 2, 7, 40] {
        for x in [-1.3, 0.2, 0.9] {
            let (value, dx) = nested_sin_grad(x, n);
            assert_eq!(value, nested_sin(x, n));
            let expected = nested_sin_derivative(x, n);
            assert!(
                (dx - expected).abs() <= 1e-14,
                "n = {n}: {dx} vs {expected}"
            );
            let fd = central(|x| nested_sin(x, n), x, 1e-6);
            assert!((dx - fd).abs() <= 1e-8, "n = {n}: {dx} vs {fd}");
        }
    }
}

/// Counts the executions of a function's body.
struct Counter(Cell<usize>);

impl Counter {
    fn tick(&self, n: usize) -> usize {
        self.0.set(self.0.get() + 1);
        n
    }
}

/// `nested_sin` counting its bodies, with a branch nested in the `else`.
#[differentiable]
fn counted(x: f64, n: usize, #[constant] calls: &Counter) -> f64 {
    let n = calls.tick(n);
    if n == 0 {
        x
    } else if n > 1000 {
        counted(x, n - 1, calls).sin()
    } else {
        counted(x * 1.0, n - 1, calls).sin()
    }
}

#[test]
fn a_recursion_of_depth_n_runs_its_body_n_plus_one_times() {
    let depth = 2000;
    let calls = Counter(Cell::new(0));
    // A deep recursion of the sweeps needs a larger stack than a test's.
    let (dx, runs) = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let (_, dx) = counted_grad(0.9, depth, &calls);
            (dx, calls.0.get())
        })
        .unwrap()
        .join()
        .unwrap();
    // Recomputing each level's call in the reverse sweep ran the primal
    // recursion below it again: depth² / 2 ≈ 2 000 000 bodies.
    assert_eq!(runs, depth + 1);
    let expected = nested_sin_derivative(0.9, depth);
    assert!((dx - expected).abs() <= 1e-14, "{dx} vs {expected}");
}

/// Two slices: two lifetimes, which the recorded pullback's box cannot
/// name together, so each level's call is recomputed (quadratic, but right).
#[differentiable]
fn weighted_depth(x: f64, w: &[f64], v: &[f64], n: usize) -> f64 {
    if n == 0 {
        x * v[0]
    } else {
        let y = weighted_depth(x, w, v, n - 1);
        y * w[n % w.len()]
    }
}

#[test]
fn a_recursion_borrowing_two_slices_is_recomputed_and_right() {
    let (w, v) = ([0.5, 1.5, -2.0], [3.0]);
    let (value, dx, dw, dv) = weighted_depth_grad(0.7, &w, &v, 5);
    assert_eq!(value, weighted_depth(0.7, &w, &v, 5));
    // x·v0·Π w[k % 3], k = 1..=5: w1 w2 w0 w1 w2.
    let product = w[1] * w[2] * w[0] * w[1] * w[2];
    assert!((dx - v[0] * product).abs() <= 1e-14);
    assert!((dv[0] - 0.7 * product).abs() <= 1e-14);
    // w0 once, w1 and w2 twice.
    assert!((dw[0] - 0.7 * v[0] * product / w[0]).abs() <= 1e-13);
    assert!((dw[1] - 2.0 * 0.7 * v[0] * product / w[1]).abs() <= 1e-13);
    assert!((dw[2] - 2.0 * 0.7 * v[0] * product / w[2]).abs() <= 1e-13);
}
