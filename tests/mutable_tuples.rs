//! Mutable tuple locals, as Rust code tracks a pair: an argmax
//! `best = (i, v)`, running sums `acc = (acc.0 + v, acc.1 + v * v)`,
//! components written one at a time (`t.1 += ..`), swapped, assigned in a
//! branch, and read whole (`let (a, b) = t;`, returned). Expected adjoints
//! are closed forms (`CF64_*`) and five-point central differences of the
//! primal (`FD64_*`); every value is the primal's bit for bit.

mod fd_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use fd_support::*;

fn close(actual: &[f64], expected: &[f64], abs: f64, rel: f64) {
    assert_eq!(actual.len(), expected.len());
    for (a, e) in actual.iter().zip(expected) {
        assert_relative_eq!(*a, *e, epsilon = abs, max_relative = rel);
    }
}

/// The largest element times its index: `best` carries an integer and a
/// float through the loop.
#[differentiable(jvp, hessian)]
fn argmax_weighted(x: &[f64]) -> f64 {
    let mut best = (0usize, f64::NEG_INFINITY);
    for (i, &v) in x.iter().enumerate() {
        if v > best.1 {
            best = (i, v);
        }
    }
    let (i, v) = best;
    v * v * (i as f64 + 1.0)
}

/// Mean and variance from a running `(sum, sum of squares)`.
#[differentiable(jvp, hessian)]
fn variance(x: &[f64]) -> f64 {
    let mut acc: (f64, f64) = (0.0, 0.0);
    for &v in x {
        acc = (acc.0 + v, acc.1 + v * v);
    }
    let n = x.len() as f64;
    acc.1 / n - (acc.0 / n) * (acc.0 / n)
}

/// Components written one at a time, swapped in a loop, and assigned in
/// the arms of a branch.
#[differentiable(jvp, hessian)]
fn pair_steps(a: f64, b: f64) -> f64 {
    let mut t = (a, b);
    t.0 += b * 0.5;
    t.1 *= a;
    for _ in 0..3 {
        t = (t.1, t.0 + 0.25);
    }
    if t.0 > t.1 {
        t = (t.0 * t.1, a);
    } else {
        t.1 -= a * b;
    }
    t.0 + 2.0 * t.1
}

/// A mutable tuple bound from a branch, then updated in a loop.
#[differentiable]
fn ordered_pair(a: f64, b: f64) -> f64 {
    let mut t = if a < b { (a, b) } else { (b, a) };
    for k in 0..3 {
        t.1 += t.0 * (k as f64);
    }
    t.0 - t.1 * t.1
}

/// A tuple local returned whole: a function of two outputs.
#[differentiable(jvp)]
fn min_max(x: &[f64]) -> (f64, f64) {
    let mut m = (x[0], x[0]);
    for &v in &x[1..] {
        if v < m.0 {
            m.0 = v;
        }
        if v > m.1 {
            m.1 = v;
        }
    }
    m
}

#[test]
fn an_argmax_pair_carries_its_index_and_value() {
    let x = [0.5, 2.0, -1.0, 1.5];
    let (v, g) = argmax_weighted_grad(&x);
    assert_eq!(v.to_bits(), argmax_weighted(&x).to_bits());
    // 2² · 2: d/dx₁ = 2 · 2 · 2 = 8, nothing else.
    close(&g, &[0.0, 8.0, 0.0, 0.0], CF64_ABS, CF64_REL);
    close(&g, &fd64_slice(argmax_weighted, &x), FD64_ABS, FD64_REL);
    let (_, t) = argmax_weighted_jvp(&x, &[1.0, 1.0, 1.0, 1.0]);
    close(&[t], &[8.0], CF64_ABS, CF64_REL);
    let (_, _, h) = argmax_weighted_hessian(&x);
    assert_eq!(h[(1, 1)], 4.0);
    assert_eq!(h.iter().filter(|&&e| e != 0.0).count(), 1);
}

#[test]
fn a_running_pair_gives_the_variance() {
    let x = [0.3, -1.2, 2.0, 0.7];
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let (v, g) = variance_grad(&x);
    assert_eq!(v.to_bits(), variance(&x).to_bits());
    // d/dxᵢ (Σx²/n − m²) = 2xᵢ/n − 2m/n.
    let want: Vec<f64> = x.iter().map(|xi| 2.0 * (xi - mean) / n).collect();
    close(&g, &want, CF64_ABS, CF64_REL);
    let (_, _, h) = variance_hessian(&x);
    for i in 0..4 {
        for j in 0..4 {
            let want = if i == j { 2.0 / n } else { 0.0 } - 2.0 / (n * n);
            assert_relative_eq!(h[(i, j)], want, epsilon = CF64_ABS, max_relative = CF64_REL);
        }
    }
}

#[test]
fn components_are_written_swapped_and_joined() {
    for &(a, b) in &[(0.7, 1.3), (2.0, -0.5), (-1.1, 0.4)] {
        let (v, da, db) = pair_steps_grad(a, b);
        assert_eq!(v.to_bits(), pair_steps(a, b).to_bits());
        let (fa, fb) = fd64_2(pair_steps, a, b);
        close(&[da, db], &[fa, fb], FD64_ABS, FD64_REL);
        let (tv, t) = pair_steps_jvp(a, b, 1.0, -2.0);
        assert_eq!(tv.to_bits(), v.to_bits());
        close(&[t], &[da - 2.0 * db], CF64_ABS, CF64_REL);
        let (_, _, h) = pair_steps_hessian(a, b);
        let row_a = fd64_2(|a, b| pair_steps_grad(a, b).1, a, b);
        let row_b = fd64_2(|a, b| pair_steps_grad(a, b).2, a, b);
        close(
            &[h[(0, 0)], h[(0, 1)], h[(1, 0)], h[(1, 1)]],
            &[row_a.0, row_a.1, row_b.0, row_b.1],
            FD64_ABS,
            FD64_REL,
        );
    }
}

#[test]
fn a_tuple_from_a_branch_is_a_mutable_pair() {
    for &(a, b) in &[(0.5, 1.5), (2.0, -1.0)] {
        let (v, da, db) = ordered_pair_grad(a, b);
        assert_eq!(v.to_bits(), ordered_pair(a, b).to_bits());
        // lo − (hi + 3 lo)²: d/dlo = 1 − 6 (hi + 3 lo), d/dhi = −2 (hi + 3 lo).
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        let (dlo, dhi) = (1.0 - 6.0 * (hi + 3.0 * lo), -2.0 * (hi + 3.0 * lo));
        let want = if a < b { [dlo, dhi] } else { [dhi, dlo] };
        close(&[da, db], &want, CF64_ABS, CF64_REL);
    }
}

#[test]
fn a_tuple_local_is_returned_whole() {
    let x = [0.5, -1.5, 2.5, 1.0];
    let (value, j) = min_max_jacobian(&x);
    assert_eq!(value, min_max(&x));
    // Rows: min then max; the min is x₁, the max x₂.
    let want = [[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]];
    for r in 0..2 {
        for c in 0..4 {
            assert_eq!(j[(r, c)], want[r][c]);
        }
    }
}
