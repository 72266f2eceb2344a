//! Arguments whose names the generated wrappers also use for their own
//! locals (`value`, `pullback`, `seed`, `d_x`, `check`): the user's names
//! must not change what `NAME_grad`, `NAME_vjp` or `NAME_check` compute.
//!
//! Regression tests: `value` and `check` as argument names once clashed
//! with the wrappers' own locals (the check ran at the function's value;
//! `check` did not compile). The wrappers' locals are now hygienic.
//!
//! Regression tests too: the wrappers' arguments are hygienic, so their
//! locals are `__ad_` names, lengthened while an argument starts with
//! `__ad_`; a `map` closure's VJP is written inside the function, next to
//! the element and adjoint it is applied to (`__ad_x`, `__ad_g`).
//!
//! Expected adjoints are closed forms of polynomials in small dyadic
//! numbers, exact in binary, so they are compared with `assert_eq!`.

use autograd::differentiable;
use nalgebra::DMatrix;

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

/// Arguments named like the wrappers' locals as they are now named.
#[differentiable]
fn named_like_prefixed_locals(__ad_value: f64, __ad_pullback: f64, __ad_d_x: f64, x: f64) -> f64 {
    __ad_value * __ad_pullback * __ad_pullback + __ad_d_x * x * x
}

#[test]
fn arguments_named_like_the_wrappers_prefixed_locals() {
    // p·s² + d·x² at (2, 3, 0.5, 4), as in `named_like_locals`.
    assert_eq!(
        named_like_prefixed_locals_grad(2.0, 3.0, 0.5, 4.0),
        (26.0, 9.0, 12.0, 16.0, 4.0)
    );
    let (_, pullback) = named_like_prefixed_locals_vjp(2.0, 3.0, 0.5, 4.0);
    assert_eq!(pullback(2.0), (18.0, 24.0, 32.0, 8.0));
    let check = named_like_prefixed_locals_check(2.0, 3.0, 0.5, 4.0);
    assert!(check.is_within(1e-7, 1e-7), "{check}");
    let at: Vec<f64> = check.components().iter().map(|c| c.adjoint).collect();
    assert_eq!(at, [9.0, 12.0, 16.0, 4.0]);
}

/// A rule for `a² + 3b`: `(2a·g, 3g)`.
fn square_plus_rule(g: f64, a: f64, _b: f64, _out: f64) -> (f64, f64) {
    (2.0 * a * g, 3.0 * g)
}

/// A custom rule's arguments named like its wrapper's locals.
#[differentiable(backward = square_plus_rule)]
fn square_plus(__ad_output: f64, __ad_seed: f64) -> f64 {
    __ad_output * __ad_output + 3.0 * __ad_seed
}

#[test]
fn a_custom_rule_with_arguments_named_like_its_locals() {
    assert_eq!(square_plus_grad(1.5, 2.0), (8.25, 3.0, 3.0));
    let (value, pullback) = square_plus_vjp(1.5, 2.0);
    assert_eq!((value, pullback(0.5)), (8.25, (1.5, 1.5)));
}

/// A `map` closure whose element is named `seed` and which reads locals
/// named `value`, `pullback` and `__ad_g` and an argument named `__ad_x`.
#[differentiable]
fn map_with_wrapper_names(m: &DMatrix<f64>, #[constant] __ad_x: f64, n: usize) -> f64 {
    let value = n as f64;
    let pullback = 0.5;
    let __ad_g = 2.0;
    let e = m.map(|seed| seed * value + pullback * seed * seed * __ad_x + __ad_g);
    e.sum()
}

#[test]
fn a_map_closure_with_names_like_the_generated_ones() {
    let m = DMatrix::from_row_slice(1, 3, &[1.0, -2.0, 0.5]);
    // Σ (n·v + v²·x/2 + 2): ∂v = n + v·x, at n = 3, x = 4.
    let (value, d_m) = map_with_wrapper_names_grad(&m, 4.0, 3);
    assert_eq!(value, 3.0 * -0.5 + 2.0 * (1.0 + 4.0 + 0.25) + 6.0);
    assert_eq!(d_m, DMatrix::from_row_slice(1, 3, &[7.0, -5.0, 5.0]));
}
