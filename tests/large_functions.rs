//! Functions far longer than usual compile with `#[differentiable]` whenever
//! they compile without it, and give the right gradient: a sum of 2 049
//! terms and a body of 1 537 `let`s. One `let` per operation in the sweeps
//! nested so many scopes that rustc's debug info overflowed its stack (see
//! `emit/scopes.rs`; the unit tests there count the nesting).
//!
//! The bodies are written by `repeated!` from a short unit, so this file
//! stays small. Expected values are closed forms.

use autograd::differentiable;

/// `repeated!({head} {pre} {post} [unit] {} steps..)` writes the item
/// `head { pre units.. post }`: each `twice` doubles the unit, each `keep`
/// writes the current unit once. Every token comes from the call, so the
/// names in the unit are the function's own.
macro_rules! repeated {
    ({$($head:tt)*} {$($pre:tt)*} {$($post:tt)*} [$($unit:tt)*] {$($done:tt)*}) => {
        $($head)* { $($pre)* $($done)* $($post)* }
    };
    ({$($head:tt)*} {$($pre:tt)*} {$($post:tt)*} [$($unit:tt)*] {$($done:tt)*} twice $($steps:tt)*) => {
        repeated!({$($head)*} {$($pre)*} {$($post)*} [$($unit)* $($unit)*] {$($done)*} $($steps)*);
    };
    ({$($head:tt)*} {$($pre:tt)*} {$($post:tt)*} [$($unit:tt)*] {$($done:tt)*} keep $($steps:tt)*) => {
        repeated!({$($head)*} {$($pre)*} {$($post)*} [$($unit)*] {$($done)* $($unit)*} $($steps)*);
    };
}

// x + 1024 · (1.5 x − 0.25 sin x): 2 049 terms in one expression.
repeated!(
    {#[differentiable] fn long_sum(x: f64) -> f64} {x} {}
    [+ x * 1.5 - x.sin() * 0.25] {}
    twice twice twice twice twice twice twice twice twice twice keep
);

// a ← x, then 1 536 times a ← c·a + x with c = 1.0001.
repeated!(
    {#[differentiable] fn many_lets(x: f64) -> f64} {let a = x;} {a}
    [let a = a * 1.0001 + x;] {}
    twice twice twice twice twice twice twice twice twice keep twice keep
);

#[test]
fn a_sum_of_two_thousand_terms() {
    let x = 0.7f64;
    let (value, dx) = long_sum_grad(x);
    assert_eq!(value, long_sum(x));
    let expected = 1.0 + 1024.0 * (1.5 - 0.25 * x.cos());
    // 2 049 contributions of size ≤ 1.5 each, summed in f64.
    assert!(
        (dx - expected).abs() < 1e-11 * expected,
        "{dx} vs {expected}"
    );
    assert!((value - (x + 1024.0 * (1.5 * x - 0.25 * x.sin()))).abs() < 1e-11 * value);
}

#[test]
fn fifteen_hundred_lets() {
    let x = 0.3f64;
    let (value, dx) = many_lets_grad(x);
    assert_eq!(value, many_lets(x));
    // a_n = cⁿ x + x (cⁿ − 1) / (c − 1), n = 1536.
    let (c, n) = (1.0001f64, 1536);
    let cn = c.powi(n);
    let expected = cn + (cn - 1.0) / (c - 1.0);
    assert!(
        (dx - expected).abs() < 1e-9 * expected,
        "{dx} vs {expected}"
    );
    assert!((value - expected * x).abs() < 1e-9 * value);
}
