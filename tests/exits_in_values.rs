//! `return`, `break` and `continue` in the value of a statement: an arm of
//! a `match` whose value a `let` binds, and the right-hand side of `+=`,
//! `*=` or `=` (an `if` or a `match` with arms that exit), alone and in
//! loops whose trip counts depend on the data, with the exit taken and not
//! taken.
//!
//! Expected derivatives: closed forms where stated, else five-point central
//! differences of the plain function (`tests/fd_support`), to `FD64_ABS`
//! (1e-9) absolute or `FD64_REL` (1e-8) relative.

#![allow(clippy::needless_range_loop)]

use autograd::differentiable;

#[path = "fd_support/mod.rs"]
mod fd_support;
use fd_support::*;

/// Twice `x`, its sine, or (for any other `k`) `x²` returned at once.
#[differentiable]
fn by_kind(x: f64, k: i64) -> f64 {
    let y = match k {
        0 => x * 2.0,
        1 => x.sin(),
        _ => return x * x,
    };
    y * x + 1.0
}

/// The same with the exit first and a guard: a negative `x` returns its
/// square at once.
#[differentiable]
fn guarded(x: f64, k: i64) -> f64 {
    let y = match k {
        _ if x < 0.0 => return x * x,
        0 => x.exp(),
        _ => x.cos(),
    };
    y * y
}

/// An exit in the middle of an `else if` chain.
#[differentiable]
fn chain(x: f64) -> f64 {
    let y = if x > 2.0 {
        x.ln()
    } else if x < -1.0 {
        return -x;
    } else {
        x * x
    };
    y + x
}

/// The sum of the entries' squares, skipping the negative ones, stopping
/// once it is above `limit`.
#[differentiable]
fn positive_squares(x: &[f64], limit: f64) -> f64 {
    let mut acc = 0.0;
    for &v in x.iter() {
        acc += if v > 0.0 { v * v } else { continue };
        if acc > limit {
            break;
        }
    }
    acc
}

/// Each entry by its kind: `0` its exponential, `1` its square, `2`
/// skipped, anything else ends the sum.
#[differentiable]
fn by_kinds(x: &[f64], #[constant] kinds: &[i32]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += match kinds[i] {
            0 => x[i].exp(),
            1 => x[i] * x[i],
            2 => continue,
            _ => break,
        };
    }
    s
}

/// The product of the entries until the first one of magnitude 1 or more.
#[differentiable]
fn small_product(x: &[f64]) -> f64 {
    let mut p = 1.0;
    for i in 0..x.len() {
        p *= if x[i].abs() < 1.0 { x[i] } else { break };
    }
    p
}

/// A `while` loop: every third step skipped, until the sum passes
/// `target`.
#[differentiable]
fn walk(x: &[f64], target: f64) -> f64 {
    let mut s = 0.0;
    let mut i = 0;
    while i < x.len() {
        let v = x[i];
        i += 1;
        s += match i % 3 {
            0 => continue,
            1 => v * v,
            _ => v.exp(),
        };
        if s > target {
            break;
        }
    }
    s
}

/// A `return` out of a loop from a `match` arm: the weights' sum of
/// squares until the first weight of kind other than 0, then doubled.
#[differentiable]
fn until_other(x: &[f64], #[constant] kinds: &[i32]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        let w = match kinds[i] {
            0 => x[i],
            _ => return s * 2.0,
        };
        s += w * w;
    }
    s
}

/// A plain assignment whose value may `break`, and an arm that exits in
/// two ways (an `if` whose arms both exit).
#[differentiable]
fn last_small(x: &[f64], #[constant] kinds: &[i32]) -> f64 {
    let mut last = 0.0;
    for i in 0..x.len() {
        last = match kinds[i] {
            0 => x[i].sin(),
            _ => {
                if x[i] > 0.0 {
                    return last + x[i];
                } else {
                    break;
                }
            }
        };
    }
    last * last
}

fn check_slice(what: &str, f: impl Fn(&[f64]) -> f64, value: f64, got: &[f64], x: &[f64]) {
    assert_eq!(value.to_bits(), f(x).to_bits(), "{what}: value");
    assert_all_fd64_close(what, got, &fd64_slice(f, x));
}

#[test]
fn a_match_arm_that_returns_taken_and_not() {
    for k in 0..3 {
        for &x in LINE64 {
            let (v, dx) = by_kind_grad(x, k);
            assert_eq!(v.to_bits(), by_kind(x, k).to_bits());
            // Closed forms: 4x, sin x + x cos x, 2x.
            let want = match k {
                0 => 4.0 * x,
                1 => x.sin() + x * x.cos(),
                _ => 2.0 * x,
            };
            assert!(
                (dx - want).abs() <= CF64_ABS + CF64_REL * want.abs(),
                "k={k} x={x}"
            );
            assert_fd64_close("by_kind", dx, fd64(|t| by_kind(t, k), x));
        }
    }
}

#[test]
fn a_guard_arm_that_returns_and_an_exit_in_an_else_if_chain() {
    for k in 0..2 {
        for &x in LINE64 {
            let (v, dx) = guarded_grad(x, k);
            assert_eq!(v.to_bits(), guarded(x, k).to_bits());
            assert_fd64_close("guarded", dx, fd64(|t| guarded(t, k), x));
        }
    }
    for &x in LINE64 {
        let (v, dx) = chain_grad(x);
        assert_eq!(v.to_bits(), chain(x).to_bits());
        assert_fd64_close("chain", dx, fd64(chain, x));
    }
    // The exit taken: d(-x)/dx = -1.
    assert_eq!(chain_grad(-2.5).1, -1.0);
}

#[test]
fn continue_and_break_in_a_compound_assignment() {
    let x = [0.5, -1.0, 1.2, 0.3, -0.2, 2.0, 0.7];
    for limit in [0.1, 1.0, 2.0, 100.0] {
        let (v, dx, dl) = positive_squares_grad(&x, limit);
        check_slice(
            "positive_squares",
            |x| positive_squares(x, limit),
            v,
            &dx,
            &x,
        );
        assert_eq!(dl, 0.0);
    }
    // Closed form with no break: 2v for the positive entries, 0 otherwise.
    let (_, dx, _) = positive_squares_grad(&x, 100.0);
    for i in 0..x.len() {
        assert_eq!(dx[i], if x[i] > 0.0 { 2.0 * x[i] } else { 0.0 });
    }

    let x = [0.4, -0.3, 0.9, 0.2, 1.1];
    for kinds in [
        [0, 1, 2, 0, 1],
        [1, 2, 0, 3, 0],
        [3, 0, 0, 0, 0],
        [2, 2, 2, 2, 2],
    ] {
        let (v, dx) = by_kinds_grad(&x, &kinds);
        check_slice("by_kinds", |x| by_kinds(x, &kinds), v, &dx, &x);
    }
    for x in [
        vec![0.5, -0.8, 0.9],
        vec![0.5, 1.5, 0.9],
        vec![2.0, 0.5],
        vec![],
    ] {
        let (v, dx) = small_product_grad(&x);
        check_slice("small_product", small_product, v, &dx, &x);
    }
}

#[test]
fn a_match_in_a_while_loop_with_a_data_dependent_trip_count() {
    let x = [0.3, -0.6, 0.8, 0.1, -0.4, 0.5, 0.9];
    for target in [0.05, 1.0, 3.0, 50.0] {
        let (v, dx, dt) = walk_grad(&x, target);
        check_slice("walk", |x| walk(x, target), v, &dx, &x);
        assert_eq!(dt, 0.0);
    }
}

#[test]
fn return_and_assignment_out_of_loops_from_match_arms() {
    let x = [0.4, -0.3, 0.9, 0.2];
    for kinds in [[0, 0, 0, 0], [0, 0, 1, 0], [1, 0, 0, 0]] {
        let (v, dx) = until_other_grad(&x, &kinds);
        check_slice("until_other", |x| until_other(x, &kinds), v, &dx, &x);
    }
    // Closed form, the return taken at index 2: 4·x[i] before it, 0 after.
    let (_, dx) = until_other_grad(&x, &[0, 0, 1, 0]);
    assert_eq!(dx, vec![4.0 * x[0], 4.0 * x[1], 0.0, 0.0]);
    let x = [0.4, -0.3, 0.9, -0.2];
    for kinds in [[0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [1, 0, 0, 0]] {
        let (v, dx) = last_small_grad(&x, &kinds);
        check_slice("last_small", |x| last_small(x, &kinds), v, &dx, &x);
    }
}

/// Forward mode and second order through the same rewrites: a `match`
/// arm that breaks in `+=`, and a `let` of `match x.first()` whose `None`
/// arm returns.
#[differentiable(jvp, hessian)]
fn weighted_until(x: &[f64], a: f64, #[constant] kinds: &[i32]) -> f64 {
    let x0 = match x.first() {
        Some(&v) => v,
        None => return a * a,
    };
    let mut s = 0.0;
    for i in 0..x.len() {
        s += match kinds[i] {
            0 => a * x[i] * x[i],
            1 => continue,
            _ => break,
        };
    }
    s * x0
}

#[test]
fn forward_mode_and_hessian_through_exits_in_values() {
    let x = [0.6, -0.4, 0.9, 1.3];
    let a = 0.7;
    for kinds in [[0, 0, 0, 0], [0, 1, 0, 2], [2, 0, 0, 0]] {
        let f = |x: &[f64], a: f64| weighted_until(x, a, &kinds);
        let dx = [0.3, -0.2, 0.5, 0.1];
        let da = -0.4;
        let (value, tangent) = weighted_until_jvp(&x, a, &kinds, &dx, da);
        assert_eq!(value.to_bits(), f(&x, a).to_bits());
        // The directional derivative by central differences along (dx, da).
        let along = |t: f64| {
            let moved: Vec<f64> = x.iter().zip(&dx).map(|(x, d)| x + t * d).collect();
            f(&moved, a + t * da)
        };
        assert_fd64_close("weighted_until jvp", tangent, fd64(along, 0.0));
        // The Hessian's (a, a) entry: ∂²f/∂a² by differences of ∂f/∂a.
        let (value, _, h) = weighted_until_hessian(&x, a, &kinds);
        assert_eq!(value.to_bits(), f(&x, a).to_bits());
        let daa = fd64(|t| weighted_until_grad(&x, t, &kinds).2, a);
        assert_fd64_close("weighted_until hessian", h[(4, 4)], daa);
        let dx0a = fd64(|t| weighted_until_grad(&x, t, &kinds).1[0], a);
        assert_fd64_close("weighted_until hessian x0 a", h[(0, 4)], dx0a);
    }
    // The empty slice returns a²: gradient 2a, Hessian 2.
    let (v, g, h) = weighted_until_hessian(&[], a, &[]);
    assert_eq!(v, a * a);
    assert_eq!((g.len(), g[0], h[(0, 0)]), (1, 2.0 * a, 2.0));
    let (v, t) = weighted_until_jvp(&[], a, &[], &[], 1.0);
    assert_eq!((v, t), (a * a, 2.0 * a));
}
