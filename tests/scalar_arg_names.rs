//! Arguments whose names the generated wrappers also use for their own
//! locals (`value`, `pullback`, `seed`, `d_x`, `check`): the user's names
//! must not change what `NAME_grad`, `NAME_vjp` or `NAME_check` compute.
//!
//! Regression tests: `value` and `check` as argument names once clashed
//! with the wrappers' own locals (the check ran at the function's value;
//! `check` did not compile). The wrappers' locals are now hygienic.
//!
//! Expected adjoints are closed forms of polynomials in small dyadic
//! numbers, exact in binary, so they are compared with `assert_eq!`.

use autograd::differentiable;

/// x² with the argument named `value`.
#[differentiable]
fn square_of_value(value: f64) -> f64 {
    value * value
}

/// Arguments named like the wrappers' locals; nonlinear in each, so a
/// mix-up of names changes the numbers.
#[differentiable]
fn named_like_locals(pullback: f64, seed: f64, d_x: f64, x: f64) -> f64 {
    pullback * seed * seed + d_x * x * x
}

#[test]
fn grad_and_vjp_are_unaffected_by_argument_names() {
    assert_eq!(square_of_value_grad(3.0), (9.0, 6.0));
    let (value, pullback) = square_of_value_vjp(3.0);
    assert_eq!(value, 9.0);
    assert_eq!(pullback(0.5), (3.0,));

    // p·s² + d·x² at (2, 3, 0.5, 4): value 18 + 8 = 26; adjoints
    // s² = 9, 2ps = 12, x² = 16, 2dx = 4.
    assert_eq!(
        named_like_locals_grad(2.0, 3.0, 0.5, 4.0),
        (26.0, 9.0, 12.0, 16.0, 4.0)
    );
    let (value, pullback) = named_like_locals_vjp(2.0, 3.0, 0.5, 4.0);
    assert_eq!(value, named_like_locals(2.0, 3.0, 0.5, 4.0));
    assert_eq!(pullback(2.0), (18.0, 24.0, 32.0, 8.0));
    assert_eq!(square_of_value(3.0), 9.0);
}

#[test]
fn check_is_unaffected_by_argument_names() {
    let check = named_like_locals_check(2.0, 3.0, 0.5, 4.0);
    assert!(check.is_within(1e-7, 1e-7), "{check}");
    let at: Vec<f64> = check.components().iter().map(|c| c.adjoint).collect();
    assert_eq!(at, [9.0, 12.0, 16.0, 4.0]);
}

#[test]
fn check_with_an_argument_named_value() {
    let check = square_of_value_check(3.0);
    assert!(check.is_within(1e-7, 1e-7), "{check}");
}

/// x² with the argument named `check`.
#[differentiable]
fn square_of_check(check: f64) -> f64 {
    check * check
}

#[test]
fn an_argument_named_check() {
    assert_eq!(square_of_check_grad(3.0), (9.0, 6.0));
    let report = square_of_check_check(3.0);
    assert!(report.is_within(1e-7, 1e-7), "{report}");
}
