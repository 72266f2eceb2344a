//! Inputs that once compiled into wrong derivatives or failed to compile
//! (the trust issue), each kept as the smallest program that showed it.
//!
//! Expected values are closed forms or central differences of the primal,
//! with the tolerance stated at the assertion.

use autograd::differentiable;

/// Central difference of `f` at `x` with step `h`.
fn central(f: impl Fn(f64) -> f64, x: f64, h: f64) -> f64 {
    (f(x + h) - f(x - h)) / (2.0 * h)
}

// ---------------------------------------------------------------------------
// A variable holding a call's result, updated in one arm of a branch inside
// a `while`: the reverse sweep built the adjoint's zero from the value at
// iteration entry, which it had not kept (E0425 on a generated name).

#[differentiable]
fn sine(x: f64) -> f64 {
    x.sin()
}

#[differentiable]
fn call_then_while(c: f64, q: f64) -> f64 {
    let mut y = sine(c);
    let mut t = 0.0;
    while t < 0.6 {
        if q > 1.0 {
        } else {
            y += q;
        }
        t += 0.25;
    }
    y
}

#[test]
fn call_result_updated_in_a_branch_of_a_while() {
    // Three iterations (t = 0, 0.25, 0.5) add q each time when q <= 1.
    let (value, dc, dq) = call_then_while_grad(0.3, 0.5);
    assert_eq!(value, call_then_while(0.3, 0.5));
    assert!((dc - 0.3f64.cos()).abs() < 1e-15);
    assert_eq!(dq, 3.0);
    // q > 1: the branch never adds.
    let (_, dc, dq) = call_then_while_grad(0.3, 1.5);
    assert!((dc - 0.3f64.cos()).abs() < 1e-15);
    assert_eq!(dq, 0.0);
    let fd = central(|q| call_then_while(0.3, q), 0.5, 1e-6);
    assert!((fd - 3.0).abs() < 1e-6);
}
