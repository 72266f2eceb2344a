//! `if let Some(v) = x.first()`, `if let Some(&v) = x.last()` and `match
//! x.first() { Some(v) => .., None => .. }` on a differentiable slice: the
//! element's derivative flows, and an empty slice takes the `None` path as
//! the plain function does. Also with an exit in the `None` arm, and in
//! loops whose trip counts depend on the data.
//!
//! Expected derivatives: closed forms where stated, else five-point central
//! differences of the plain function (`tests/fd_support`), to `FD64_ABS`
//! (1e-9) absolute or `FD64_REL` (1e-8) relative.

#![allow(clippy::needless_range_loop)]

use autograd::differentiable;

#[path = "fd_support/mod.rs"]
mod fd_support;
use fd_support::*;

#[differentiable]
fn head_or(x: &[f64], d: f64) -> f64 {
    if let Some(v) = x.first() {
        v * v + d
    } else {
        d.exp()
    }
}

#[differentiable]
fn tail_times_sum(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += x[i];
    }
    if let Some(&v) = x.last() {
        v.sin() * s
    } else {
        0.0
    }
}

#[differentiable]
fn first_match(x: &[f64], y: f64) -> f64 {
    match x.first() {
        Some(v) => *v * y,
        None => y * y,
    }
}

#[differentiable]
fn last_copied(x: &[f64]) -> f64 {
    match x.last().copied() {
        None => 1.0,
        Some(v) => v.exp(),
    }
}

/// The `None` arm returns: a `let` of a `match` on `first()`.
#[differentiable]
fn relative_to_first(x: &[f64]) -> f64 {
    let x0 = match x.first() {
        Some(v) => *v,
        None => return 0.0,
    };
    let mut s = 0.0;
    for i in 0..x.len() {
        s += (x[i] - x0).powi(2);
    }
    s / x0.exp()
}

/// In a loop whose trip count is the data's: while the last entry is above
/// the running sum, add its square; an empty slice breaks at once.
#[differentiable]
fn grow_by_last(x: &[f64], start: f64) -> f64 {
    let mut s = start;
    let mut n = 0;
    while n < 20 {
        let v = if let Some(&v) = x.last() { v } else { break };
        if s > v * 4.0 {
            break;
        }
        s += v * v;
        n += 1;
    }
    s
}

fn check(what: &str, f: impl Fn(&[f64]) -> f64, value: f64, got: &[f64], x: &[f64]) {
    assert_eq!(value.to_bits(), f(x).to_bits(), "{what}: value");
    assert_all_fd64_close(what, got, &fd64_slice(f, x));
}

#[test]
fn if_let_on_first_and_last() {
    let x = [0.7, -0.4, 1.3];
    let (v, dx, dd) = head_or_grad(&x, 0.5);
    check("head_or", |x| head_or(x, 0.5), v, &dx, &x);
    // Closed form: 2·x0 and 1.
    assert_eq!(dx, vec![2.0 * x[0], 0.0, 0.0]);
    assert_eq!(dd, 1.0);
    let (v, dx) = tail_times_sum_grad(&x);
    check("tail_times_sum", tail_times_sum, v, &dx, &x);
}

#[test]
fn the_empty_slice_takes_the_none_path() {
    let (v, dx, dd) = head_or_grad(&[], 0.5);
    assert_eq!(v.to_bits(), head_or(&[], 0.5).to_bits());
    assert!(dx.is_empty());
    // d/dd e^d.
    assert!((dd - 0.5f64.exp()).abs() < CF64_ABS);
    let (v, dx) = tail_times_sum_grad(&[]);
    assert_eq!((v, dx.len()), (0.0, 0));
    let (v, dx, dy) = first_match_grad(&[], 1.5);
    assert_eq!((v, dx.len(), dy), (first_match(&[], 1.5), 0, 3.0));
    let (v, dx) = last_copied_grad(&[]);
    assert_eq!((v, dx.len()), (1.0, 0));
    let (v, dx) = relative_to_first_grad(&[]);
    assert_eq!((v, dx.len()), (0.0, 0));
    let (v, dx, ds) = grow_by_last_grad(&[], 0.3);
    assert_eq!((v, dx.len(), ds), (0.3, 0, 1.0));
}

#[test]
fn match_on_first_and_last() {
    for x in [vec![0.6], vec![-1.1, 0.4], vec![0.2, 0.9, -0.5, 1.4]] {
        let (v, dx, dy) = first_match_grad(&x, 1.5);
        check("first_match", |x| first_match(x, 1.5), v, &dx, &x);
        assert_fd64_close("first_match dy", dy, fd64(|y| first_match(&x, y), 1.5));
        let (v, dx) = last_copied_grad(&x);
        check("last_copied", last_copied, v, &dx, &x);
        let (v, dx) = relative_to_first_grad(&x);
        check("relative_to_first", relative_to_first, v, &dx, &x);
    }
}

#[test]
fn if_let_with_break_in_a_loop() {
    for (x, start) in [
        (vec![0.2, 0.5], 0.1),
        (vec![0.9, 0.7], 0.05),
        (vec![0.3], 2.0),
        (vec![1.2, -0.3, 0.8], 0.4),
    ] {
        let (v, dx, ds) = grow_by_last_grad(&x, start);
        check("grow_by_last", |x| grow_by_last(x, start), v, &dx, &x);
        assert_fd64_close("grow_by_last ds", ds, fd64(|s| grow_by_last(&x, s), start));
    }
}

/// Arms with guards: the first entry's square when it is positive, its
/// negation when it is below -1, else `y`.
#[differentiable]
fn guarded_head(x: &[f64], y: f64) -> f64 {
    match x.first() {
        Some(v) if *v > 0.0 => v * v,
        Some(&v) if v < -1.0 => -v,
        _ => y,
    }
}

#[test]
fn match_on_first_with_guards() {
    for x in [vec![0.7, 0.1], vec![-1.5], vec![-0.5, 2.0], vec![]] {
        let (v, dx, dy) = guarded_head_grad(&x, 0.3);
        check("guarded_head", |x| guarded_head(x, 0.3), v, &dx, &x);
        assert_fd64_close("guarded_head dy", dy, fd64(|y| guarded_head(&x, y), 0.3));
    }
    // Closed forms: 2·x0, -1, and 0 (the `y` arm).
    assert_eq!(guarded_head_grad(&[0.7, 0.1], 0.3).1, vec![1.4, 0.0]);
    assert_eq!(guarded_head_grad(&[-1.5], 0.3).1, vec![-1.0]);
    assert_eq!(
        guarded_head_grad(&[-0.5, 2.0], 0.3),
        (0.3, vec![0.0, 0.0], 1.0)
    );
}
