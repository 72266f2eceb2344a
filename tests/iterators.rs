//! Iterator chains, tuples, assertions and `const` items in a
//! `#[differentiable]` body (issue 14): each shape alone, inside outer
//! loops and branches, at `f32` once, and through a call of another
//! `#[differentiable]` function in a closure.
//!
//! Every function returns, from `_grad`, the primal's value bit for bit
//! (checked with `to_bits`); expected adjoints come from closed forms
//! (tolerance `CF64_*`) or from five-point central differences of the
//! primal (`fd_support`, tolerance `FD64_*`).

// The reference implementations below are written as index loops on
// purpose: they are what the chains must equal.
#![allow(clippy::needless_range_loop)]

#[path = "fd_support/mod.rs"]
mod fd_support;

use std::sync::atomic::{AtomicUsize, Ordering};

use approx::assert_relative_eq;
use autograd::differentiable;
use fd_support::*;

const X: &[f64] = &[0.7, -1.3, 2.1, 0.4, -0.6, 1.9];
const Y: &[f64] = &[1.1, 0.2, -0.8, 1.6, 0.9, -0.3];

fn close(actual: &[f64], expected: &[f64], abs: f64, rel: f64) {
    assert_eq!(actual.len(), expected.len());
    for (a, e) in actual.iter().zip(expected) {
        assert_relative_eq!(*a, *e, epsilon = abs, max_relative = rel);
    }
}

fn closed(actual: &[f64], expected: &[f64]) {
    close(actual, expected, CF64_ABS, CF64_REL);
}

fn against_fd(actual: &[f64], f: impl Fn(&[f64]) -> f64, x: &[f64]) {
    close(actual, &fd64_slice(f, x), FD64_ABS, FD64_REL);
}

// ---------------------------------------------------------------------------
// `for` over slices.

#[differentiable]
fn for_value(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in x {
        s += v * v;
    }
    s
}

#[differentiable]
fn for_ref_pattern(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for &v in x.iter() {
        s += v * v;
    }
    s
}

#[differentiable]
fn for_deref(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in x.iter() {
        s += *v * *v;
    }
    s
}

#[test]
fn for_over_a_slice_is_the_index_loop() {
    let two_x: Vec<f64> = X.iter().map(|v| 2.0 * v).collect();
    for f in [for_value_grad, for_ref_pattern_grad, for_deref_grad] {
        let (value, dx) = f(X);
        assert_eq!(value.to_bits(), for_value(X).to_bits());
        closed(&dx, &two_x);
    }
}

#[differentiable]
fn for_enumerate(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for (i, v) in x.iter().enumerate() {
        s += (i + 1) as f64 * v * v;
    }
    s
}

#[differentiable]
fn for_zip(x: &[f64], y: &Vec<f64>) -> f64 {
    let mut s = 0.0;
    for (a, b) in x.iter().zip(y) {
        s += a * b;
    }
    s
}

#[differentiable]
fn for_zip_iter_copied(x: &[f64], y: &[f64]) -> f64 {
    let mut s = 0.0;
    for (a, b) in x.iter().copied().zip(y.iter().cloned()) {
        s += (a - b) * (a - b);
    }
    s
}

#[test]
fn enumerate_and_zip_in_for_loops() {
    let (value, dx) = for_enumerate_grad(X);
    assert_eq!(value.to_bits(), for_enumerate(X).to_bits());
    let expected: Vec<f64> = (0..X.len()).map(|i| 2.0 * (i + 1) as f64 * X[i]).collect();
    closed(&dx, &expected);

    let y = Y.to_vec();
    let (value, dx, dy) = for_zip_grad(X, &y);
    assert_eq!(value.to_bits(), for_zip(X, &y).to_bits());
    closed(&dx, Y);
    closed(&dy, X);

    // Zip stops at the shorter slice: the tail of the longer one gets zero.
    let (_, dx, dy) = for_zip_grad(&X[..4], &y);
    closed(&dx, &Y[..4]);
    closed(&dy, &[X[0], X[1], X[2], X[3], 0.0, 0.0]);

    let (value, dx, dy) = for_zip_iter_copied_grad(X, Y);
    assert_eq!(value.to_bits(), for_zip_iter_copied(X, Y).to_bits());
    let d: Vec<f64> = X.iter().zip(Y).map(|(a, b)| 2.0 * (a - b)).collect();
    closed(&dx, &d);
    closed(&dy, &d.iter().map(|v| -v).collect::<Vec<_>>());
}

// ---------------------------------------------------------------------------
// Consumed chains: `sum`, `product`, `fold`.

#[differentiable]
fn squared_distance(x: &[f64], y: &[f64]) -> f64 {
    x.iter().zip(y).map(|(a, b)| (a - b) * (a - b)).sum::<f64>()
}

#[differentiable]
fn squared_distance_loop(x: &[f64], y: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        let d = x[i] - y[i];
        s += d * d;
    }
    s
}

#[test]
fn sum_of_a_zipped_map() {
    let (value, dx, dy) = squared_distance_grad(X, Y);
    assert_eq!(value.to_bits(), squared_distance(X, Y).to_bits());
    assert_relative_eq!(value, squared_distance_loop(X, Y), epsilon = 1e-14);
    let d: Vec<f64> = X.iter().zip(Y).map(|(a, b)| 2.0 * (a - b)).collect();
    closed(&dx, &d);
    closed(&dy, &d.iter().map(|v| -v).collect::<Vec<_>>());
    let (_, lx, ly) = squared_distance_loop_grad(X, Y);
    closed(&dx, &lx);
    closed(&dy, &ly);
}

#[differentiable]
fn scaled_norm(x: &[f64], w: f64) -> f64 {
    // The closure reads `w`, a differentiable argument.
    let s: f64 = x.iter().map(|v| (w * v) * (w * v)).sum();
    s
}

#[differentiable]
fn exp_sum(x: &[f64]) -> f64 {
    x.iter().copied().map(f64::exp).sum::<f64>()
}

#[test]
fn map_closures_read_outer_variables() {
    let w = 1.7;
    let (value, dx, dw) = scaled_norm_grad(X, w);
    assert_eq!(value.to_bits(), scaled_norm(X, w).to_bits());
    let sq: f64 = X.iter().map(|v| v * v).sum();
    assert_relative_eq!(
        dw,
        2.0 * w * sq,
        epsilon = CF64_ABS,
        max_relative = CF64_REL
    );
    closed(&dx, &X.iter().map(|v| 2.0 * w * w * v).collect::<Vec<_>>());

    let (value, dx) = exp_sum_grad(X);
    assert_eq!(value.to_bits(), exp_sum(X).to_bits());
    closed(&dx, &X.iter().map(|v| v.exp()).collect::<Vec<_>>());
}

#[differentiable]
fn product_of(x: &[f64]) -> f64 {
    x.iter().product::<f64>()
}

#[differentiable]
fn horner(c: &[f64], t: f64) -> f64 {
    // c[0] + t·(c[1] + t·(c[2] + ..)): the highest coefficient first.
    c.iter().rev().fold(0.0, |acc, &ci| acc * t + ci)
}

#[test]
fn product_fold_and_rev() {
    let (value, dx) = product_of_grad(X);
    assert_eq!(value.to_bits(), product_of(X).to_bits());
    let expected: Vec<f64> = (0..X.len())
        .map(|i| (0..X.len()).filter(|&j| j != i).map(|j| X[j]).product())
        .collect();
    closed(&dx, &expected);

    let t = 0.8;
    let (value, dc, dt) = horner_grad(X, t);
    assert_eq!(value.to_bits(), horner(X, t).to_bits());
    closed(
        &dc,
        &(0..X.len()).map(|i| t.powi(i as i32)).collect::<Vec<_>>(),
    );
    let dp: f64 = (1..X.len())
        .map(|i| i as f64 * X[i] * t.powi(i as i32 - 1))
        .sum();
    assert_relative_eq!(dt, dp, epsilon = CF64_ABS, max_relative = CF64_REL);
}

#[differentiable]
fn mean_and_variance(x: &[f64]) -> f64 {
    let (s, s2) = x.iter().fold((0.0, 0.0), |(a, b), v| (a + v, b + v * v));
    let n = x.len() as f64;
    let mean = s / n;
    s2 / n - mean * mean
}

#[test]
fn fold_with_a_tuple_accumulator() {
    let (value, dx) = mean_and_variance_grad(X);
    assert_eq!(value.to_bits(), mean_and_variance(X).to_bits());
    let n = X.len() as f64;
    let mean = X.iter().sum::<f64>() / n;
    closed(
        &dx,
        &X.iter().map(|v| 2.0 * (v - mean) / n).collect::<Vec<_>>(),
    );
}

// ---------------------------------------------------------------------------
// Positional adapters: `windows`, `chunks_exact`, `skip`, `take`, `rev`,
// `enumerate`.

#[differentiable]
fn roughness(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for w in x.windows(2) {
        let d = w[1] - w[0];
        s += d * d;
    }
    s
}

#[differentiable]
fn roughness_sum(x: &[f64]) -> f64 {
    x.windows(2)
        .map(|w| (w[1] - w[0]) * (w[1] - w[0]))
        .sum::<f64>()
}

#[differentiable]
fn second_difference(x: &[f64]) -> f64 {
    x.windows(3)
        .map(|w| {
            let c = w[0] - 2.0 * w[1] + w[2];
            c * c
        })
        .sum::<f64>()
}

#[test]
fn windows_read_neighbours() {
    let mut expected = vec![0.0; X.len()];
    for i in 0..X.len() - 1 {
        let d = X[i + 1] - X[i];
        expected[i] -= 2.0 * d;
        expected[i + 1] += 2.0 * d;
    }
    for f in [roughness_grad, roughness_sum_grad] {
        let (value, dx) = f(X);
        assert_relative_eq!(value, roughness(X), epsilon = 1e-14);
        closed(&dx, &expected);
    }
    assert_eq!(roughness_grad(X).0.to_bits(), roughness(X).to_bits());
    assert_eq!(
        roughness_sum_grad(X).0.to_bits(),
        roughness_sum(X).to_bits()
    );
    // Shorter than the window: no items, zero gradient.
    assert_eq!(roughness_grad(&[1.0]), (0.0, vec![0.0]));
    assert_eq!(second_difference_grad(&[1.0, 2.0]), (-0.0, vec![0.0, 0.0]));

    let (value, dx) = second_difference_grad(X);
    assert_eq!(value.to_bits(), second_difference(X).to_bits());
    against_fd(&dx, second_difference, X);
}

/// Interleaved points `(x, y)`: the sum of their distances from the origin;
/// an odd last element is the remainder `chunks_exact` leaves out.
#[differentiable]
fn point_norms(xy: &[f64]) -> f64 {
    xy.chunks_exact(2).map(|p| p[0].hypot(p[1])).sum::<f64>()
}

/// Triples read from the end, the last one skipped, weighted by their
/// count and by a second slice.
#[differentiable]
fn reversed_triples(x: &[f64], w: &[f64]) -> f64 {
    let mut s = 0.0;
    for (j, c) in x.chunks_exact(3).rev().skip(1).enumerate() {
        s += (j as f64 + 1.0) * c[0] * c[2] - c[1] * w[j];
    }
    s
}

/// A chunk beside a zipped slice and its own length.
#[differentiable]
fn chunk_means(x: &[f64], w: &[f64]) -> f64 {
    x.chunks_exact(2)
        .zip(w.iter())
        .map(|(c, wi)| wi * (c[0] + c[1]) / c.len() as f64)
        .sum::<f64>()
}

#[test]
fn chunks_exact_reads_disjoint_chunks() {
    // Seven elements: three pairs and a remainder, which has no adjoint.
    let xy = [0.5, 1.3, -0.7, 2.0, 3.0, -4.0, 0.9];
    let (value, dxy) = point_norms_grad(&xy);
    assert_eq!(value.to_bits(), point_norms(&xy).to_bits());
    let mut expected = vec![0.0; xy.len()];
    for j in 0..3 {
        let (a, b) = (xy[2 * j], xy[2 * j + 1]);
        let h = a.hypot(b);
        expected[2 * j] = a / h;
        expected[2 * j + 1] = b / h;
    }
    closed(&dxy, &expected);
    against_fd(&dxy, point_norms, &xy);
    // Shorter than a chunk: no items.
    assert_eq!(point_norms_grad(&[1.0]), (-0.0, vec![0.0]));

    // Ten elements: triples at 0, 3, 6 and the remainder 9; reversed and
    // the first (at 6) skipped, the items are the triple at 3 (j = 0) and
    // at 0 (j = 1): s = x3·x5 − x4·w0 + 2·x0·x2 − x1·w1.
    let x = [0.5, 1.3, -0.7, 2.0, 0.3, 0.2, 0.9, 1.1, 1.2, 1.3];
    let w = [1.0, 2.0, 3.0];
    let (value, dx, dw) = reversed_triples_grad(&x, &w);
    assert_eq!(value.to_bits(), reversed_triples(&x, &w).to_bits());
    closed(
        &dx,
        &[
            2.0 * x[2],
            -w[1],
            2.0 * x[0],
            x[5],
            -w[0],
            x[3],
            0.0,
            0.0,
            0.0,
            0.0,
        ],
    );
    closed(&dw, &[-x[4], -x[1], 0.0]);

    // Two pairs, three weights: `zip` stops at the shorter.
    let x = [0.5, 1.3, -0.7, 2.0, 0.4];
    let w = [0.25, -1.5, 7.0];
    let (value, dx, dw) = chunk_means_grad(&x, &w);
    assert_eq!(value.to_bits(), chunk_means(&x, &w).to_bits());
    closed(&dx, &[0.125, 0.125, -0.75, -0.75, 0.0]);
    closed(&dw, &[(x[0] + x[1]) / 2.0, (x[2] + x[3]) / 2.0, 0.0]);
}

/// Pairs `(a, b)` summed as a²·b, to second order.
#[differentiable(jvp, hessian)]
fn pair_cubics(xy: &[f64]) -> f64 {
    xy.chunks_exact(2).map(|p| p[0] * p[0] * p[1]).sum::<f64>()
}

#[test]
fn chunks_exact_to_second_order() {
    let x = [0.5, 1.3, -0.7, 2.0, 0.3];
    let (value, g, h) = pair_cubics_hessian(&x);
    assert_eq!(value.to_bits(), pair_cubics(&x).to_bits());
    // Closed form: ∂/∂a = 2ab, ∂/∂b = a², ∂²/∂a² = 2b, ∂²/∂a∂b = 2a; the
    // remainder x4 has none. Exact in these products of short binary
    // fractions up to one rounding each.
    closed(
        g.as_slice(),
        &[
            2.0 * x[0] * x[1],
            x[0] * x[0],
            2.0 * x[2] * x[3],
            x[2] * x[2],
            0.0,
        ],
    );
    let mut expected = nalgebra::DMatrix::<f64>::zeros(5, 5);
    for j in 0..2 {
        let (a, b) = (2 * j, 2 * j + 1);
        expected[(a, a)] = 2.0 * x[b];
        expected[(a, b)] = 2.0 * x[a];
        expected[(b, a)] = 2.0 * x[a];
    }
    closed(h.as_slice(), expected.as_slice());
}

/// Every other element from the second, squared.
#[differentiable]
fn odd_squares(x: &[f64]) -> f64 {
    x.iter().skip(1).step_by(2).map(|v| v * v).sum::<f64>()
}

/// A stride before `zip` and `enumerate`, and after `rev`.
#[differentiable]
fn strided_pairs(x: &[f64], y: &[f64]) -> f64 {
    let mut s = 0.0;
    for (i, (a, b)) in x.iter().step_by(3).zip(y.iter()).enumerate() {
        s += (i as f64 + 1.0) * a * b;
    }
    s + x.iter().rev().step_by(2).sum::<f64>()
}

#[test]
fn step_by_reads_every_kth() {
    let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0];
    // x1² + x3² + x5².
    assert_eq!(
        odd_squares_grad(&x),
        (56.0, vec![0.0, 4.0, 0.0, 8.0, 0.0, 12.0, 0.0])
    );
    assert_eq!(odd_squares_grad(&[1.0]), (-0.0, vec![0.0]));
    // Pairs (x0, y0), (x3, y1), (x6, y2) weighted 1, 2, 3, plus x6 + x4 + x2 + x0.
    let y = [0.5, 0.25, 2.0];
    let (value, dx, dy) = strided_pairs_grad(&x, &y);
    assert_eq!(value.to_bits(), strided_pairs(&x, &y).to_bits());
    closed(&dx, &[1.5, 0.0, 1.0, 0.5, 1.0, 0.0, 7.0]);
    closed(&dy, &[1.0, 8.0, 21.0]);
    against_fd(&dx, |q| strided_pairs(q, &y), &x);
}

// Searches and counts: `position`, `count`, `any`, `all` give an index, a
// count or a `bool`, which carries no derivative; the floats they pick
// carry theirs.

/// A piecewise-linear zero curve: the bracketing knot found with
/// `position`, then interpolated.
#[differentiable]
fn interpolated_discount(rates: &[f64], #[constant] knots: &[f64], #[constant] t: f64) -> f64 {
    let i = knots
        .iter()
        .position(|&k| k >= t)
        .unwrap_or(knots.len() - 1)
        .max(1);
    let w = (t - knots[i - 1]) / (knots[i] - knots[i - 1]);
    let r = rates[i - 1] * (1.0 - w) + rates[i] * w;
    (-r * t).exp()
}

/// The mean of the positive elements, zero if one is above a cap.
#[differentiable]
fn positive_mean(x: &[f64]) -> f64 {
    let n = x.iter().filter(|v| **v > 0.0).count();
    let s: f64 = x.iter().filter(|v| **v > 0.0).sum();
    if x.iter().any(|&v| v > 10.0) {
        return 0.0;
    }
    if n == 0 { 0.0 } else { s / n as f64 }
}

/// A closure's parameter named like an argument (`v`) is the element, not
/// the argument.
#[differentiable]
fn first_above_one(x: &[f64], v: f64) -> f64 {
    let first_big = x.iter().position(|&v| v > 1.0);
    let all_small = x.iter().all(|w| *w < v);
    let k = match first_big {
        Some(i) => i,
        None => x.len() - 1,
    };
    if all_small { x[k] * v } else { x[k] * 2.0 }
}

#[test]
fn searches_pick_the_floats_that_carry_derivatives() {
    let knots = [0.5, 1.0, 2.0, 5.0, 10.0];
    let rates = [0.02, 0.022, 0.025, 0.03, 0.032];
    for t in [0.7, 3.0, 12.0] {
        let (value, dr) = interpolated_discount_grad(&rates, &knots, t);
        assert_eq!(
            value.to_bits(),
            interpolated_discount(&rates, &knots, t).to_bits()
        );
        against_fd(&dr, |r| interpolated_discount(r, &knots, t), &rates);
    }
    // t = 3 lies in [2, 5]: w = 1/3, f = exp(−t·(⅔·r2 + ⅓·r3)).
    let (f, dr) = interpolated_discount_grad(&rates, &knots, 3.0);
    closed(&dr, &[0.0, 0.0, -3.0 * f * 2.0 / 3.0, -3.0 * f / 3.0, 0.0]);

    let x = [0.5, -1.0, 2.0, 0.25];
    let (value, dx) = positive_mean_grad(&x);
    assert_eq!(value.to_bits(), positive_mean(&x).to_bits());
    closed(&dx, &[1.0 / 3.0, 0.0, 1.0 / 3.0, 1.0 / 3.0]);
    assert_eq!(positive_mean_grad(&[0.5, 11.0]), (0.0, vec![0.0, 0.0]));
    assert_eq!(positive_mean_grad(&[-0.5]), (0.0, vec![0.0]));

    // x[2] is the first above 1, and not all are below v: 2·x[2].
    let x = [0.5, -1.0, 2.0];
    assert_eq!(
        first_above_one_grad(&x, 0.7),
        (4.0, vec![0.0, 0.0, 2.0], 0.0)
    );
    // None above 1 (the last is read), all below v = 3: x[1]·v.
    let x = [0.1, 0.2];
    let (value, dx, dv) = first_above_one_grad(&x, 3.0);
    assert_eq!(value.to_bits(), first_above_one(&x, 3.0).to_bits());
    assert_eq!((dx, dv), (vec![0.0, 3.0], 0.2));
}

/// The index taken out with `let .. else` and `if let`.
#[differentiable]
fn first_big_squared(x: &[f64]) -> f64 {
    let Some(i) = x.iter().position(|&v| v > 1.0) else {
        return 0.0;
    };
    x[i] * x[i]
}

#[differentiable]
fn last_big_tripled(x: &[f64]) -> f64 {
    if let Some(i) = x.iter().rposition(|&v| v > 1.0) {
        x[i] * 3.0
    } else {
        x[0]
    }
}

#[test]
fn a_searched_index_is_taken_out_of_its_option() {
    assert_eq!(
        first_big_squared_grad(&[0.5, 2.0, 3.0]),
        (4.0, vec![0.0, 4.0, 0.0])
    );
    assert_eq!(first_big_squared_grad(&[0.5]), (0.0, vec![0.0]));
    assert_eq!(
        last_big_tripled_grad(&[3.0, 2.0, 0.1]),
        (6.0, vec![0.0, 3.0, 0.0])
    );
    assert_eq!(last_big_tripled_grad(&[0.5, 0.1]), (0.5, vec![1.0, 0.0]));
}

/// The largest and smallest elements picked with `max_by` / `min_by`, by
/// reference and by value, unwrapped, defaulted and matched.
#[differentiable]
fn twice_the_max(x: &[f64]) -> f64 {
    *x.iter().max_by(|a, b| a.partial_cmp(b).unwrap()).unwrap() * 2.0
}

#[differentiable]
fn min_or_zero(x: &[f64]) -> f64 {
    x.iter().copied().min_by(f64::total_cmp).unwrap_or(0.0)
}

#[differentiable]
fn max_squared(x: &[f64]) -> f64 {
    if let Some(&m) = x.iter().max_by(|a, b| a.total_cmp(b)) {
        m * m
    } else {
        0.0
    }
}

#[differentiable]
fn spread(x: &[f64]) -> f64 {
    let hi = x
        .iter()
        .cloned()
        .max_by(|a, b| a.partial_cmp(b).unwrap())
        .unwrap();
    let lo = x
        .iter()
        .cloned()
        .min_by(|a, b| a.partial_cmp(b).unwrap())
        .unwrap();
    hi - lo
}

#[differentiable(jvp, hessian)]
fn max_squared_times_first(x: &[f64]) -> f64 {
    let m = *x.iter().max_by(|a, b| a.partial_cmp(b).unwrap()).unwrap();
    m * m * x[0]
}

#[test]
fn max_by_and_min_by_pick_the_element_rust_picks() {
    // Equal maxima at 1 and 3: `max_by` keeps the last (3); the minimum is
    // at 2.
    let x = [1.0, 3.0, -2.0, 3.0, 0.5];
    assert_eq!(twice_the_max_grad(&x), (6.0, vec![0.0, 0.0, 0.0, 2.0, 0.0]));
    assert_eq!(min_or_zero_grad(&x), (-2.0, vec![0.0, 0.0, 1.0, 0.0, 0.0]));
    assert_eq!(max_squared_grad(&x), (9.0, vec![0.0, 0.0, 0.0, 6.0, 0.0]));
    assert_eq!(spread_grad(&x), (5.0, vec![0.0, 0.0, -1.0, 1.0, 0.0]));
    // Equal minima: `min_by` keeps the first.
    assert_eq!(min_or_zero_grad(&[0.5, 0.5]), (0.5, vec![1.0, 0.0]));
    assert_eq!(min_or_zero_grad(&[]), (0.0, vec![]));
    assert_eq!(max_squared_grad(&[]), (0.0, vec![]));
    against_fd(&spread_grad(&[0.3, 1.7, -0.4]).1, spread, &[0.3, 1.7, -0.4]);

    // f = x1²·x0 near x = (1, 3, 2).
    let (value, g, h) = max_squared_times_first_hessian(&[1.0, 3.0, 2.0]);
    assert_eq!(value, 9.0);
    closed(g.as_slice(), &[9.0, 6.0, 0.0]);
    closed(h.as_slice(), &[0.0, 6.0, 0.0, 6.0, 2.0, 0.0, 0.0, 0.0, 0.0]);
}

/// `reduce` of a slice's values, unwrapped or defaulted: the fold of the
/// rest from the first element.
#[differentiable]
fn reduced_squares(x: &[f64]) -> f64 {
    x.iter().copied().reduce(|a, b| a + b * b).unwrap_or(0.0)
}

#[differentiable]
fn twice_the_reduced_max(x: &[f64]) -> f64 {
    x.iter().cloned().reduce(f64::max).unwrap() * 2.0
}

#[test]
fn reduce_folds_from_the_first_element() {
    // x0 + x1² + x2².
    assert_eq!(
        reduced_squares_grad(&[1.0, 2.0, 3.0]),
        (14.0, vec![1.0, 4.0, 6.0])
    );
    assert_eq!(reduced_squares_grad(&[]), (0.0, vec![]));
    assert_eq!(
        twice_the_reduced_max_grad(&[1.0, 3.0, 2.0]),
        (6.0, vec![0.0, 2.0, 0.0])
    );
    assert!(std::panic::catch_unwind(|| twice_the_reduced_max_grad(&[])).is_err());
}

/// A method of the element `reduce` or `max_by` gives with `unwrap_or`
/// (`.sqrt()`, `.exp()` after it): the chain is an element, not an
/// iterator (the corpus's reduce_sum_squares; issue 36 lowers the
/// `unwrap_or` where it stands, the method's receiver included).
#[differentiable]
fn rooted_reductions(x: &[f64], d: f64) -> f64 {
    let squares: Vec<f64> = x.iter().map(|v| v * v).collect();
    squares
        .iter()
        .copied()
        .reduce(|a, b| a + b)
        .unwrap_or(d)
        .sqrt()
        + x.iter()
            .copied()
            .max_by(|a, b| a.total_cmp(b))
            .unwrap_or(d)
            .exp()
}

#[test]
fn a_method_of_a_reduced_or_best_element() {
    // √(Σ x²) + e^max: ∂x_i = x_i / √(Σ x²), plus e^max at the largest.
    let x = [0.5, -1.5, 1.2];
    let (v, dx, dd) = rooted_reductions_grad(&x, 2.0);
    assert_eq!(v.to_bits(), rooted_reductions(&x, 2.0).to_bits());
    let norm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
    for i in 0..3 {
        let best = if i == 2 { x[2].exp() } else { 0.0 };
        assert_relative_eq!(
            dx[i],
            x[i] / norm + best,
            epsilon = 1e-12,
            max_relative = 1e-12
        );
    }
    assert_eq!(dd, 0.0);
    // Empty: √d + e^d.
    let (v, dx, dd) = rooted_reductions_grad(&[], 2.0);
    assert_eq!((v, dx.len()), (2f64.sqrt() + 2f64.exp(), 0));
    assert_relative_eq!(
        dd,
        0.5 / 2f64.sqrt() + 2f64.exp(),
        epsilon = 1e-12,
        max_relative = 1e-12
    );
}

/// A search under `hessian`: the index over a differentiable slice and
/// over constant knots, and a count.
#[differentiable(jvp, hessian)]
fn searched_product(x: &[f64], #[constant] knots: &[f64], #[constant] t: f64) -> f64 {
    let i = knots.iter().position(|&k| k >= t).unwrap_or(0);
    let j = x.iter().position(|&v| v > 1.0).unwrap_or(0);
    let n = x.iter().filter(|v| **v > 0.0).count();
    x[i] * x[j] * n as f64
}

#[test]
fn searches_to_second_order() {
    // i = 1 (the first knot ≥ 1.5), j = 1 (2.0 > 1), n = 3: f = 3·x1².
    let x = [0.5, 2.0, 3.0];
    let (value, g, h) = searched_product_hessian(&x, &[1.0, 2.0], 1.5);
    assert_eq!(
        value.to_bits(),
        searched_product(&x, &[1.0, 2.0], 1.5).to_bits()
    );
    closed(g.as_slice(), &[0.0, 12.0, 0.0]);
    let mut expected = [0.0; 9];
    expected[4] = 6.0;
    closed(h.as_slice(), &expected);
}

#[differentiable]
fn skip_take(x: &[f64], k: usize, m: usize) -> f64 {
    x.iter().skip(k).take(m).map(|v| v * v).sum::<f64>()
}

#[differentiable]
fn weighted_tail(x: &[f64]) -> f64 {
    // Weights count from the start of the slice, not of the tail.
    x.iter()
        .enumerate()
        .skip(2)
        .map(|(i, v)| i as f64 * v)
        .sum::<f64>()
}

#[differentiable]
fn reversed_weights(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for (i, v) in x.iter().rev().enumerate() {
        s += (i as f64 + 1.0) * v;
    }
    s
}

#[differentiable]
fn reversed_skip_zip(x: &[f64], y: &[f64]) -> f64 {
    // x from its end, y from its second element.
    x.iter()
        .rev()
        .skip(1)
        .zip(y.iter().skip(1))
        .map(|(a, b)| a * b)
        .sum::<f64>()
}

#[test]
fn skip_take_rev_enumerate() {
    for (k, m) in [(0, 6), (1, 3), (2, 10), (5, 2), (6, 1), (9, 3), (0, 0)] {
        let (value, dx) = skip_take_grad(X, k, m);
        assert_eq!(value.to_bits(), skip_take(X, k, m).to_bits());
        let expected: Vec<f64> = (0..X.len())
            .map(|i| if i >= k && i < k + m { 2.0 * X[i] } else { 0.0 })
            .collect();
        closed(&dx, &expected);
    }

    let (value, dx) = weighted_tail_grad(X);
    assert_eq!(value.to_bits(), weighted_tail(X).to_bits());
    closed(&dx, &[0.0, 0.0, 2.0, 3.0, 4.0, 5.0]);

    let (value, dx) = reversed_weights_grad(X);
    assert_eq!(value.to_bits(), reversed_weights(X).to_bits());
    closed(&dx, &[6.0, 5.0, 4.0, 3.0, 2.0, 1.0]);

    let (value, dx, dy) = reversed_skip_zip_grad(X, Y);
    assert_eq!(value.to_bits(), reversed_skip_zip(X, Y).to_bits());
    // Pairs (x[4], y[1]), (x[3], y[2]), .., (x[0], y[5]).
    let n = X.len();
    let mut ex = vec![0.0; n];
    let mut ey = vec![0.0; n];
    for p in 0..n - 1 {
        ex[n - 2 - p] += Y[1 + p];
        ey[1 + p] += X[n - 2 - p];
    }
    closed(&dx, &ex);
    closed(&dy, &ey);
    // Slices too short for any pair.
    assert_eq!(
        reversed_skip_zip_grad(&[1.0], &[2.0]),
        (-0.0, vec![0.0], vec![0.0])
    );
    assert_eq!(reversed_skip_zip_grad(&[], &[]), (-0.0, vec![], vec![]));
}

#[differentiable]
fn positive_energy(x: &[f64]) -> f64 {
    x.iter().filter(|v| **v > 0.0).map(|v| v * v).sum::<f64>()
}

#[differentiable]
fn positive_energy_for(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for &v in x.iter().filter(|&&v| v > 0.0).rev() {
        s = s * 0.5 + v * v;
    }
    s
}

#[test]
fn filter_keeps_items_where_the_condition_holds() {
    let (value, dx) = positive_energy_grad(X);
    assert_eq!(value.to_bits(), positive_energy(X).to_bits());
    closed(
        &dx,
        &X.iter()
            .map(|&v| if v > 0.0 { 2.0 * v } else { 0.0 })
            .collect::<Vec<_>>(),
    );
    let (value, dx) = positive_energy_for_grad(X);
    assert_eq!(value.to_bits(), positive_energy_for(X).to_bits());
    against_fd(&dx, positive_energy_for, X);
}

#[differentiable]
fn range_map(x: &[f64], n: usize) -> f64 {
    (0..n).map(|i| x[i] * x[n - 1 - i]).sum::<f64>()
}

#[test]
fn a_range_is_a_chain_of_integers() {
    let (value, dx) = range_map_grad(X, 4);
    assert_eq!(value.to_bits(), range_map(X, 4).to_bits());
    closed(
        &dx,
        &[2.0 * X[3], 2.0 * X[2], 2.0 * X[1], 2.0 * X[0], 0.0, 0.0],
    );
}

// ---------------------------------------------------------------------------
// Chains inside outer loops and branches, a call in a closure, f32.

#[differentiable]
fn nested_in_loop_and_branch(x: &[f64], y: &[f64], a: f64, n: usize) -> f64 {
    let mut total = 0.0;
    for k in 0..n {
        let scale = a * (k + 1) as f64;
        if k % 2 == 0 {
            total += x
                .iter()
                .zip(y)
                .map(|(u, v)| (scale * u - v).tanh())
                .sum::<f64>();
        } else {
            for (i, w) in x.windows(2).enumerate() {
                total += (i as f64 + scale) * w[0] * w[1];
            }
        }
    }
    total
}

#[test]
fn chains_inside_outer_loops_and_branches() {
    let (a, n) = (0.3, 5);
    let (value, dx, dy, da) = nested_in_loop_and_branch_grad(X, Y, a, n);
    assert_eq!(
        value.to_bits(),
        nested_in_loop_and_branch(X, Y, a, n).to_bits()
    );
    against_fd(&dx, |x| nested_in_loop_and_branch(x, Y, a, n), X);
    against_fd(&dy, |y| nested_in_loop_and_branch(X, y, a, n), Y);
    let fd_a = fd64(|a| nested_in_loop_and_branch(X, Y, a, n), a);
    assert_relative_eq!(da, fd_a, epsilon = FD64_ABS, max_relative = FD64_REL);
}

#[differentiable]
fn soft_plus(v: f64, beta: f64) -> f64 {
    (1.0 + (beta * v).exp()).ln() / beta
}

#[differentiable]
fn soft_plus_total(x: &[f64], beta: f64) -> f64 {
    x.iter().map(|&v| soft_plus(v, beta)).sum::<f64>()
}

#[test]
fn a_closure_calls_another_differentiable_function() {
    let beta = 1.4;
    let (value, dx, dbeta) = soft_plus_total_grad(X, beta);
    assert_eq!(value.to_bits(), soft_plus_total(X, beta).to_bits());
    // d/dv = sigmoid(beta·v).
    closed(
        &dx,
        &X.iter()
            .map(|v| 1.0 / (1.0 + (-beta * v).exp()))
            .collect::<Vec<_>>(),
    );
    let fd_beta = fd64(|b| soft_plus_total(X, b), beta);
    assert_relative_eq!(dbeta, fd_beta, epsilon = FD64_ABS, max_relative = FD64_REL);
}

#[differentiable]
fn dot_f32(x: &[f32], y: &[f32]) -> f32 {
    x.iter().zip(y.iter()).map(|(a, b)| a * b).sum()
}

#[test]
fn f32_chain() {
    let x: Vec<f32> = X.iter().map(|v| *v as f32).collect();
    let y: Vec<f32> = Y.iter().map(|v| *v as f32).collect();
    let (value, dx, dy) = dot_f32_grad(&x, &y);
    assert_eq!(value.to_bits(), dot_f32(&x, &y).to_bits());
    assert_eq!(dx, y);
    assert_eq!(dy, x);
}

// ---------------------------------------------------------------------------
// Tuples.

#[differentiable]
fn tuples(x: f64, y: f64) -> f64 {
    let (a, b) = (x * y, x + y);
    let t = (a, b.sin());
    let ((p, q), r) = ((t.0, t.1), x);
    let (b, a) = (a, b);
    p * q + r * a - b
}

#[test]
fn tuple_lets_fields_and_nested_patterns() {
    let (x, y) = (0.7, -1.2);
    let (value, dx, dy) = tuples_grad(x, y);
    assert_eq!(value.to_bits(), tuples(x, y).to_bits());
    // f = xy·sin(x+y) + x(x+y) − xy.
    let (s, c) = (x + y).sin_cos();
    let ex = y * s + x * y * c + 2.0 * x + y - y;
    let ey = x * s + x * y * c + x - x;
    assert_relative_eq!(dx, ex, epsilon = CF64_ABS, max_relative = CF64_REL);
    assert_relative_eq!(dy, ey, epsilon = CF64_ABS, max_relative = CF64_REL);
}

// ---------------------------------------------------------------------------
// Assertions: run in the forward sweep, once; never differentiated.

/// Calls of `counted` by `asserted` and by `checkpointed_chain` (apart,
/// as the tests run in parallel).
static CHECKS: AtomicUsize = AtomicUsize::new(0);
static CHECKPOINT_CHECKS: AtomicUsize = AtomicUsize::new(0);

/// Counts its calls: an assertion that calls it shows how often it runs.
fn counted(calls: &AtomicUsize) -> bool {
    calls.fetch_add(1, Ordering::SeqCst);
    true
}

#[differentiable]
fn asserted(x: &[f64], y: &[f64]) -> f64 {
    assert_eq!(
        x.len(),
        y.len(),
        "lengths differ: {} and {}",
        x.len(),
        y.len()
    );
    assert!(counted(&CHECKS));
    let mut s = 0.0;
    for (a, b) in x.iter().zip(y) {
        debug_assert!(counted(&CHECKS), "a = {a}");
        assert_ne!(a, b);
        s += a * b;
    }
    debug_assert_ne!(s, -1.0, "s = {s}");
    if s > 0.0 {
        assert!(s.is_finite(), "s = {s}");
    }
    s
}

#[test]
fn assertions_run_once_in_the_forward_sweep() {
    let before = CHECKS.load(Ordering::SeqCst);
    let (value, dx, dy) = asserted_grad(X, Y);
    let after = CHECKS.load(Ordering::SeqCst);
    assert_eq!(value.to_bits(), asserted(X, Y).to_bits());
    closed(&dx, Y);
    closed(&dy, X);
    let per_call = if cfg!(debug_assertions) {
        1 + X.len()
    } else {
        1
    };
    assert_eq!(after - before, per_call);
}

#[test]
#[should_panic(expected = "lengths differ: 2 and 1")]
fn a_failing_assertion_panics_in_grad_as_in_the_primal() {
    let _ = asserted_grad(&[1.0, 2.0], &[1.0]);
}

// ---------------------------------------------------------------------------
// `const` and `static` items.

const P: [f64; 5] = [1.0, -0.5, 0.25, 2.0, -1.5];
static SHIFT: f64 = 0.125;

#[differentiable]
fn const_coefficients(x: &[f64], t: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..P.len() {
        s += P[i] * x[i] * t;
    }
    s + P[2] * t + SHIFT + x.iter().zip(P.iter()).map(|(a, p)| a * p).sum::<f64>()
}

#[differentiable]
fn local_const(x: f64) -> f64 {
    use std::f64::consts::PI;
    const C: [f64; 3] = [0.5, 1.5, -2.0 * PI];
    static OFFSET: f64 = 1.0;
    C.iter().fold(0.0, |acc, &c| acc * x + c) + OFFSET
}

#[test]
fn const_arrays_are_constants() {
    let t = 1.3;
    let (value, dx, dt) = const_coefficients_grad(X, t);
    assert_eq!(value.to_bits(), const_coefficients(X, t).to_bits());
    let mut expected = vec![0.0; X.len()];
    for i in 0..P.len() {
        expected[i] = P[i] * t + P[i];
    }
    closed(&dx, &expected);
    let et: f64 = (0..P.len()).map(|i| P[i] * X[i]).sum::<f64>() + P[2];
    assert_relative_eq!(dt, et, epsilon = CF64_ABS, max_relative = CF64_REL);

    let x = 0.6;
    let (value, dx) = local_const_grad(x);
    assert_eq!(value.to_bits(), local_const(x).to_bits());
    assert_relative_eq!(
        dx,
        2.0 * 0.5 * x + 1.5,
        epsilon = CF64_ABS,
        max_relative = CF64_REL
    );
}

// ---------------------------------------------------------------------------
// Chains in conditions, in closures of chains, under `#[checkpoint]`.

#[differentiable]
fn chain_in_condition(x: &[f64], a: f64) -> f64 {
    if x.iter().map(|v| v * v).sum::<f64>() > a {
        a * x.iter().copied().fold(f64::MIN, f64::max)
    } else {
        a
    }
}

#[differentiable]
fn nested_chains(x: &[f64], y: &[f64]) -> f64 {
    // Σᵢ Σⱼ xᵢ·yⱼ·(i + 1), a chain in the closure of a chain.
    x.iter()
        .enumerate()
        .map(|(i, a)| y.iter().map(|b| a * b * (i + 1) as f64).sum::<f64>())
        .sum::<f64>()
}

#[differentiable]
fn checkpointed_chain(x: &[f64], r: f64) -> f64 {
    let mut s = 1.0;
    #[checkpoint(snapshots = 2)]
    for &v in x.iter() {
        debug_assert!(counted(&CHECKPOINT_CHECKS));
        s = s * r + v * v;
    }
    s
}

#[test]
fn chains_in_conditions_closures_and_checkpointed_loops() {
    let (value, dx, da) = chain_in_condition_grad(X, 1.0);
    assert_eq!(value.to_bits(), chain_in_condition(X, 1.0).to_bits());
    // max is x[2] = 2.1: its adjoint is a; the others get none.
    closed(&dx, &[0.0, 0.0, 1.0, 0.0, 0.0, 0.0]);
    assert_relative_eq!(da, 2.1, epsilon = CF64_ABS, max_relative = CF64_REL);
    let (value, dx, da) = chain_in_condition_grad(X, 100.0);
    assert_eq!((value, da), (100.0, 1.0));
    closed(&dx, &[0.0; 6]);

    let (value, dx, dy) = nested_chains_grad(X, Y);
    assert_eq!(value.to_bits(), nested_chains(X, Y).to_bits());
    let sy: f64 = Y.iter().sum();
    let w: f64 = X.iter().enumerate().map(|(i, a)| a * (i + 1) as f64).sum();
    closed(
        &dx,
        &(0..X.len())
            .map(|i| (i + 1) as f64 * sy)
            .collect::<Vec<_>>(),
    );
    closed(&dy, &vec![w; Y.len()]);

    let r = 0.9;
    let before = CHECKPOINT_CHECKS.load(Ordering::SeqCst);
    let (value, dx, dr) = checkpointed_chain_grad(X, r);
    let runs = CHECKPOINT_CHECKS.load(Ordering::SeqCst) - before;
    assert_eq!(runs, if cfg!(debug_assertions) { X.len() } else { 0 });
    assert_eq!(value.to_bits(), checkpointed_chain(X, r).to_bits());
    against_fd(&dx, |x| checkpointed_chain(x, r), X);
    let fd_r = fd64(|r| checkpointed_chain(X, r), r);
    assert_relative_eq!(dr, fd_r, epsilon = FD64_ABS, max_relative = FD64_REL);
}

#[differentiable]
fn typed_closure_parameters(x: &[f64], n: usize) -> f64 {
    let count = (0..n).sum::<usize>() + (1..=n).product::<usize>();
    x.iter().map(|v: &f64| v * v).sum::<f64>() * count as f64
}

#[test]
fn integer_sums_and_typed_closure_parameters() {
    let n = 3;
    let (value, dx) = typed_closure_parameters_grad(X, n);
    assert_eq!(value.to_bits(), typed_closure_parameters(X, n).to_bits());
    // count = (0 + 1 + 2) + 3! = 9.
    closed(&dx, &X.iter().map(|v| 18.0 * v).collect::<Vec<_>>());
}

// ---------------------------------------------------------------------------
// The positional adapters against Rust's own iterators, at every length
// and offset: the same chain over the indices `0..n` says which element
// each item reads, and a linear function's gradient is then the weights.

#[differentiable]
fn rev_skip_take_enumerate(x: &[f64], k: usize, m: usize) -> f64 {
    x.iter()
        .rev()
        .skip(k)
        .take(m)
        .enumerate()
        .map(|(p, v)| (p + 1) as f64 * v)
        .sum::<f64>()
}

#[differentiable]
fn skip_rev_zip_rev(x: &[f64], y: &[f64], k: usize) -> f64 {
    let mut s = 0.0;
    for (p, (a, b)) in x.iter().skip(k).rev().zip(y.iter().rev()).enumerate() {
        s += (p + 1) as f64 * a + (p + 2) as f64 * b;
    }
    s
}

#[differentiable]
fn windows_rev_skip(x: &[f64], k: usize) -> f64 {
    x.windows(3)
        .rev()
        .skip(k)
        .map(|w| w[0] + 2.0 * w[2])
        .sum::<f64>()
}

#[test]
fn positional_adapters_match_rusts_iterators() {
    for n in 0..8 {
        let x: Vec<f64> = (0..n).map(|i| 0.25 * i as f64 - 0.6).collect();
        let idx: Vec<usize> = (0..n).collect();
        for k in 0..n + 2 {
            for m in 0..n + 2 {
                let (value, dx) = rev_skip_take_enumerate_grad(&x, k, m);
                assert_eq!(value.to_bits(), rev_skip_take_enumerate(&x, k, m).to_bits());
                let mut expected = vec![0.0; n];
                for (p, &i) in idx.iter().rev().skip(k).take(m).enumerate() {
                    expected[i] += (p + 1) as f64;
                }
                assert_eq!(dx, expected, "n = {n}, k = {k}, m = {m}");
            }
            for ny in [0, n / 2, n, n + 3] {
                let y: Vec<f64> = (0..ny).map(|i| 0.5 - 0.125 * i as f64).collect();
                let (value, dx, dy) = skip_rev_zip_rev_grad(&x, &y, k);
                assert_eq!(value.to_bits(), skip_rev_zip_rev(&x, &y, k).to_bits());
                let (mut ex, mut ey) = (vec![0.0; n], vec![0.0; ny]);
                let iy: Vec<usize> = (0..ny).collect();
                for (p, (&i, &j)) in idx.iter().skip(k).rev().zip(iy.iter().rev()).enumerate() {
                    ex[i] += (p + 1) as f64;
                    ey[j] += (p + 2) as f64;
                }
                assert_eq!((dx, dy), (ex, ey), "n = {n}, ny = {ny}, k = {k}");
            }
            let (value, dx) = windows_rev_skip_grad(&x, k);
            assert_eq!(value.to_bits(), windows_rev_skip(&x, k).to_bits());
            let mut expected = vec![0.0; n];
            for w in idx.windows(3).rev().skip(k) {
                expected[w[0]] += 1.0;
                expected[w[2]] += 2.0;
            }
            assert_eq!(dx, expected, "n = {n}, k = {k}");
        }
    }
}

/// The forward mode of a chain: Σ xᵢ² + Σ xᵢ·yᵢ has the directional
/// derivative ⟨2x + y, ẋ⟩ + ⟨x, ẏ⟩ (closed form, to 1e-12).
#[differentiable(jvp)]
fn chain_jvp(x: &[f64], y: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>() + x.iter().zip(y).map(|(a, b)| a * b).sum::<f64>()
}

#[test]
fn chains_in_forward_mode() {
    let x = [0.5, -1.5, 2.0];
    let y = [1.0, 0.25, -0.5];
    let (dx, dy) = ([1.0, 0.5, -1.0], [0.25, 2.0, 1.0]);
    let (value, tangent) = chain_jvp_jvp(&x, &y, &dx, &dy);
    assert_eq!(value.to_bits(), chain_jvp(&x, &y).to_bits());
    let expected: f64 = (0..3)
        .map(|i| (2.0 * x[i] + y[i]) * dx[i] + x[i] * dy[i])
        .sum();
    assert!(
        (tangent - expected).abs() < 1e-12,
        "{tangent} vs {expected}"
    );
}

// ---------------------------------------------------------------------------
// Iteration over local arrays and `Vec`s, and `collect` into a `Vec`.

#[differentiable]
fn pushed_then_iterated(x: &[f64]) -> f64 {
    let mut logs = Vec::with_capacity(x.len());
    for i in 0..x.len() {
        logs.push((x[i] * x[i] + 1.0).ln());
    }
    let mean = logs.iter().sum::<f64>() / logs.len() as f64;
    let mut spread = 0.0;
    for l in &logs {
        spread += (l - mean) * (l - mean);
    }
    spread + logs.iter().map(|l| l * mean).sum::<f64>()
}

#[differentiable]
fn local_array_iterated(a: f64, b: f64) -> f64 {
    let terms = [a * b, a.sin(), b.exp()];
    let mut s = 0.0;
    for t in terms.iter() {
        s += t * t;
    }
    s * terms.iter().sum::<f64>()
}

#[differentiable]
fn owned_vec_iterated(x: Vec<f64>, w: f64) -> f64 {
    x.iter().map(|v| (w * v).cos()).sum()
}

#[test]
fn iteration_over_local_arrays_and_vecs() {
    let (value, dx) = pushed_then_iterated_grad(X);
    assert_eq!(value.to_bits(), pushed_then_iterated(X).to_bits());
    against_fd(&dx, pushed_then_iterated, X);

    let (a, b) = (0.8, -0.4);
    let (value, da, db) = local_array_iterated_grad(a, b);
    assert_eq!(value.to_bits(), local_array_iterated(a, b).to_bits());
    let fd = [
        fd64(|a| local_array_iterated(a, b), a),
        fd64(|b| local_array_iterated(a, b), b),
    ];
    close(&[da, db], &fd, FD64_ABS, FD64_REL);

    let w = 1.3;
    let (value, dx, dw) = owned_vec_iterated_grad(X.to_vec(), w);
    assert_eq!(value.to_bits(), owned_vec_iterated(X.to_vec(), w).to_bits());
    // Closed form: d/dx_i = -w sin(w x_i), d/dw = -sum x_i sin(w x_i).
    let want_dx: Vec<f64> = X.iter().map(|v| -w * (w * v).sin()).collect();
    let want_dw: f64 = X.iter().map(|v| -v * (w * v).sin()).sum();
    closed(&dx, &want_dx);
    closed(&[dw], &[want_dw]);
}

#[differentiable]
fn collect_by_let_type(x: &[f64]) -> f64 {
    let total: f64 = x.iter().map(|v| v * v).sum();
    let shares: Vec<f64> = x.iter().map(|v| v * v / total).collect();
    shares
        .iter()
        .enumerate()
        .map(|(i, s)| (i as f64 + 1.0) * s)
        .sum()
}

#[differentiable]
fn collect_by_turbofish(x: &[f64]) -> Vec<f64> {
    let m = x.iter().copied().fold(f64::MIN, f64::max);
    let exps = x.iter().map(|&z| (z - m).exp()).collect::<Vec<f64>>();
    let total: f64 = exps.iter().sum();
    exps.iter().map(|e| e / total).collect()
}

#[test]
fn collect_into_a_local_vec() {
    let (value, dx) = collect_by_let_type_grad(X);
    assert_eq!(value.to_bits(), collect_by_let_type(X).to_bits());
    against_fd(&dx, collect_by_let_type, X);

    // Each unit seed of the pullback is a row of the Jacobian.
    for k in 0..X.len() {
        let (value, pullback) = collect_by_turbofish_vjp(X);
        assert_eq!(value, collect_by_turbofish(X));
        let mut seed = vec![0.0; X.len()];
        seed[k] = 1.0;
        let (row,) = pullback(seed);
        against_fd(&row, |x| collect_by_turbofish(x)[k], X);
    }
}

// ---------------------------------------------------------------------------
// `let z;` assigned last in every arm of the branch after it.

// Late initialization is the construct under test.
#[allow(clippy::needless_late_init)]
#[differentiable]
fn deferred_let(x: f64, y: f64) -> f64 {
    let z;
    if x * y > 1.0 {
        let r = x * y;
        z = r.sqrt();
    } else if x > 0.0 {
        z = (x * y).cbrt();
    } else {
        z = x * x + y;
    }
    let w: f64;
    match x > y {
        true => w = z * y,
        false => {
            w = z - y;
        }
    }
    let mut v;
    v = w * x;
    v += z;
    v
}

#[test]
fn deferred_let_assigned_in_every_arm() {
    // One point in each arm of the `if`, both arms of the `match`.
    for (x, y) in [(2.0, 1.5), (0.5, 0.7), (-0.8, 0.3), (0.4, 2.0)] {
        let (value, dx, dy) = deferred_let_grad(x, y);
        assert_eq!(value.to_bits(), deferred_let(x, y).to_bits());
        let fd = [
            fd64(|x| deferred_let(x, y), x),
            fd64(|y| deferred_let(x, y), y),
        ];
        close(&[dx, dy], &fd, FD64_ABS, FD64_REL);
    }
}

/// A deferred `let` lowered where it stands (issue 36): an arm whose last
/// statement is itself a branch assigning it (rejected while it was
/// rewritten into the `let` of the branch's value), a `match` with a guard
/// on a computed scrutinee, in a loop with a `return` after it.
#[allow(clippy::needless_late_init)]
#[differentiable(jvp, hessian)]
fn deferred_nested(x: f64, y: f64, #[constant] k: usize) -> f64 {
    let mut total = 0.0;
    for i in 0..k {
        let z;
        if x > y {
            if i % 2 == 0 {
                z = x * y;
            } else {
                z = x * x;
            }
        } else {
            z = y.exp();
        }
        let w: f64;
        match i * 2 {
            0 => w = z,
            m if m > 2 => w = z * x,
            _ => {
                let t = 2.0;
                w = t * z;
            }
        }
        if w > 100.0 {
            return w;
        }
        total += w;
    }
    total
}

#[test]
fn deferred_let_assigned_by_a_nested_branch() {
    // (x, y): value, gradient, Hessian (xx, xy, yy), for k = 3.
    let (x, y) = (1.5_f64, 0.8_f64);
    // x > y: xy + 2x² + x²y.
    let above = (
        x * y + 2.0 * x * x + x * x * y,
        [y + 4.0 * x + 2.0 * x * y, x + x * x],
        [4.0 + 2.0 * y, 1.0 + 2.0 * x, 0.0],
    );
    // x ≤ y: (3 + x)·eʸ.
    let (p, q) = (0.5_f64, 0.9_f64);
    let e = q.exp();
    let below = ((3.0 + p) * e, [e, (3.0 + p) * e], [0.0, e, (3.0 + p) * e]);
    // x = 12, y = 1: the second iteration returns 2x².
    let returned = (288.0, [48.0, 0.0], [4.0, 0.0, 0.0]);
    for ((x, y), (v, g, h)) in [((x, y), above), ((p, q), below), ((12.0, 1.0), returned)] {
        let (value, dx, dy) = deferred_nested_grad(x, y, 3);
        assert_eq!(value.to_bits(), deferred_nested(x, y, 3).to_bits());
        close(&[value, dx, dy], &[v, g[0], g[1]], CF64_ABS, CF64_REL);
        let (_, t) = deferred_nested_jvp(x, y, 3, 0.7, -0.2);
        close(&[t], &[0.7 * g[0] - 0.2 * g[1]], CF64_ABS, CF64_REL);
        let (_, _, hess) = deferred_nested_hessian(x, y, 3);
        close(
            &[hess[(0, 0)], hess[(0, 1)], hess[(1, 0)], hess[(1, 1)]],
            &[h[0], h[1], h[1], h[2]],
            CF64_ABS,
            CF64_REL,
        );
    }
}

// ---------------------------------------------------------------------------
// Float predicates (`is_nan`, `is_finite`, ...) as primal code.

#[differentiable]
fn skip_missing(w: &[f64], #[constant] obs: &[f64]) -> f64 {
    let mut total = 0.0;
    for i in 0..obs.len() {
        if obs[i].is_nan() || !obs[i].is_finite() {
            continue;
        }
        let t = w[i].ln() * obs[i];
        if t.is_sign_negative() && !t.is_infinite() {
            total -= t * t;
        } else {
            total += t;
        }
    }
    total
}

#[test]
fn float_predicates_are_primal_code() {
    let obs = [1.0, f64::NAN, -2.0, f64::INFINITY, 0.5, 3.0];
    let w = [0.3, 0.2, 1.4, 0.1, 2.0, 0.8];
    let (value, dw) = skip_missing_grad(&w, &obs);
    assert_eq!(value.to_bits(), skip_missing(&w, &obs).to_bits());
    // The skipped elements get no adjoint; the others match central
    // differences (no point sits on the sign change of `t`).
    assert_eq!((dw[1], dw[3]), (0.0, 0.0));
    against_fd(&dw, |w| skip_missing(w, &obs), &w);
}

// ---------------------------------------------------------------------------
// `to_radians` / `to_degrees`: linear, a constant factor.

#[differentiable]
fn bearing_error(heading_deg: f64, turn: f64) -> f64 {
    let rad = (heading_deg + turn).to_radians();
    rad.sin() * rad.to_degrees()
}

#[differentiable]
fn angles_f32(x: f32) -> f32 {
    x.to_radians().cos() + x.to_degrees()
}

#[test]
fn angle_conversions_are_constant_factors() {
    let (h, t) = (37.0, 12.5);
    let (value, dh, dt) = bearing_error_grad(h, t);
    assert_eq!(value.to_bits(), bearing_error(h, t).to_bits());
    // Closed form: with r = (h + t)·k, k = π/180, d/dh [sin r · r/k]
    // = k·cos r · r/k + sin r · k/k = r·cos r + sin r, and the same in t.
    let r = (h + t) * std::f64::consts::PI / 180.0;
    let want = r * r.cos() + r.sin();
    closed(&[dh, dt], &[want, want]);
    assert!(bearing_error_check(h, t).is_within(1e-7, 1e-6));

    let x = 30.0_f32;
    let (value, dx) = angles_f32_grad(x);
    assert_eq!(value.to_bits(), angles_f32(x).to_bits());
    let want =
        -(x.to_radians()).sin() * std::f32::consts::PI / 180.0 + 180.0 / std::f32::consts::PI;
    assert_relative_eq!(dx, want, max_relative = 1e-6);
}

/// `std::iter::zip(a, b)`, the free function's form of `a.iter().zip(b)`,
/// as a chain's source and as a `for` loop's.
#[differentiable(jvp, hessian)]
fn free_zip_energy(w: &[f64], #[constant] x: &[f64]) -> f64 {
    let quad: f64 = std::iter::zip(w, x).map(|(a, b)| a * a * b).sum();
    let mut s = 0.0;
    for (a, b) in core::iter::zip(w.iter(), w.iter().skip(1)) {
        s += a.sin() * b;
    }
    quad + s
}

#[test]
fn free_zip_pairs_like_the_method() {
    let w = [0.3, -1.0, 2.0];
    let x = [1.0, 0.5, -0.25];
    let (value, dw) = free_zip_energy_grad(&w, &x);
    assert_eq!(value.to_bits(), free_zip_energy(&w, &x).to_bits());
    // Closed form: ∂/∂w_i of Σ w_i² x_i + Σ sin(w_i) w_{i+1}.
    let want: Vec<f64> = (0..3)
        .map(|i| {
            let next = if i < 2 { w[i].cos() * w[i + 1] } else { 0.0 };
            let prev = if i > 0 { w[i - 1].sin() } else { 0.0 };
            2.0 * w[i] * x[i] + next + prev
        })
        .collect();
    closed(&dw, &want);
    // ∂²/∂w_0∂w_1 = cos(w_0); ∂²/∂w_0² = 2x_0 − sin(w_0)·w_1.
    let (_, _, h) = free_zip_energy_hessian(&w, &x);
    assert_relative_eq!(h[(0, 1)], w[0].cos(), max_relative = 1e-14);
    assert_relative_eq!(
        h[(0, 0)],
        2.0 * x[0] - w[0].sin() * w[1],
        max_relative = 1e-14
    );
    assert_eq!(h[(0, 2)], 0.0);
}
